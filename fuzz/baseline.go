package fuzz

import (
	"fmt"
	"path"
	"strings"
)

// Baseline is the set of known failures a campaign reports without failing
// (CampaignConfig.Baseline). An entry is a failure signature
// (ProgramRecord.Signature, e.g. "vendor/wgpu-gl:llvmpipe/890a87ab8a1f73d7")
// or a pattern over signatures in path.Match syntax, where * stands for
// any run of characters other than '/': "vendor/wgpu-gl:llvmpipe/*" knows
// every vendor divergence signed on wgpu-gl, whatever program met it —
// the way to baseline one stack bug that many different programs shrink
// to. A nil *Baseline knows nothing.
type Baseline struct {
	exact    map[string]bool
	patterns []string
}

// Add adds a signature, or a pattern when sig holds any of * ? [ \.
// Errors: a malformed pattern (path.ErrBadPattern).
func (b *Baseline) Add(sig string) error {
	if strings.ContainsAny(sig, `*?[\`) {
		if _, err := path.Match(sig, ""); err != nil {
			return fmt.Errorf("malformed pattern %q: %w", sig, err)
		}
		b.patterns = append(b.patterns, sig)
		return nil
	}
	if b.exact == nil {
		b.exact = map[string]bool{}
	}
	b.exact[sig] = true
	return nil
}

// Known reports whether sig is a known failure: an entry, or matched by a
// pattern.
func (b *Baseline) Known(sig string) bool {
	if b == nil {
		return false
	}
	if b.exact[sig] {
		return true
	}
	for _, p := range b.patterns {
		if ok, _ := path.Match(p, sig); ok {
			return true
		}
	}
	return false
}

// KnowsEvery reports whether a pattern knows every signature that starts
// with prefix + "/": a pattern prefix + "/*" (or one whose part before its
// last "/*" matches prefix), such as "vendor/wgpu-gl:llvmpipe/*" for the
// prefix "vendor/wgpu-gl:llvmpipe". A campaign need not shrink such a
// failure to sign it.
func (b *Baseline) KnowsEvery(prefix string) bool {
	if b == nil {
		return false
	}
	for _, p := range b.patterns {
		head, ok := strings.CutSuffix(p, "/*")
		if !ok {
			continue
		}
		if m, _ := path.Match(head, prefix); m {
			return true
		}
	}
	return false
}

// Len returns the number of entries (signatures and patterns).
func (b *Baseline) Len() int {
	if b == nil {
		return 0
	}
	return len(b.exact) + len(b.patterns)
}
