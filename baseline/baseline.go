// Package baseline holds known failures: the set of signatures and
// signature patterns a campaign (campaign.Config.Baseline) or the driver
// matrix (drivers.Report.ApplyBaseline) reports without failing, and the
// one reader of each baseline file format (read.go).
//
// It is a leaf: it depends on no gpudiff package, so that campaign and
// drivers, which stand side by side above check (ARCHITECTURE.md
// "Packages"), both import it and neither imports the other. A baseline
// entry is an opaque string to it; what a signature or a matrix key
// spells is campaign's (campaign/signature.go) and drivers' (Divergence.Key).
package baseline

import (
	"bufio"
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"
)

// Set is a set of known failures. An entry is a failure signature
// (campaign.ProgramRecord.Signature, "class/adapter/form" or a compile
// error's "compile-error/adapter/format/mHASH", see campaign.Signature;
// or a matrix key, drivers.Divergence.Key; e.g.
// "vendor/wgpu-gl:llvmpipe/add.u32+countOneBits.u32") or a pattern over
// signatures in path.Match syntax, where * stands for any run of
// characters other than '/': "vendor/wgpu-gl:llvmpipe/*" knows every
// vendor divergence signed on wgpu-gl, whatever program met it, and
// "vendor/wgpu-gl:llvmpipe/*countOneBits*" every one whose form has that
// builtin — the way to baseline one stack bug whose shrunk programs keep
// different operations around it. A nil *Set knows nothing.
type Set struct {
	exact    map[string]bool
	patterns []string
}

// Add adds a signature, or a pattern when sig holds any of * ? [ \.
// Errors: a malformed pattern (path.ErrBadPattern).
func (b *Set) Add(sig string) error {
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
func (b *Set) Known(sig string) bool {
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

// Which returns the entry that knows sig: sig itself when it is an
// entry, else the first pattern (in the order added) that matches it;
// false when none does.
func (b *Set) Which(sig string) (string, bool) {
	if b == nil {
		return "", false
	}
	if b.exact[sig] {
		return sig, true
	}
	for _, p := range b.patterns {
		if ok, _ := path.Match(p, sig); ok {
			return p, true
		}
	}
	return "", false
}

// KnowsEvery reports whether a pattern knows every signature that starts
// with prefix + "/": a pattern prefix + "/*" (or one whose part before its
// last "/*" matches prefix), such as "vendor/wgpu-gl:llvmpipe/*" for the
// prefix "vendor/wgpu-gl:llvmpipe". A campaign need not shrink such a
// failure to sign it.
func (b *Set) KnowsEvery(prefix string) bool {
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
func (b *Set) Len() int {
	if b == nil {
		return 0
	}
	return len(b.exact) + len(b.patterns)
}

// AddText adds the entries of a text baseline (data, read from the file
// name): one signature or pattern per line; a '#' that opens a line or
// follows a blank starts a comment ('#' inside an entry is kept: adapter
// names may hold it, "wgpu-vulkan:llvmpipe#2"). check, when not nil, vets
// each entry's shape. Errors are "name:line: message".
func (b *Set) AddText(name string, data []byte, check func(entry string) error) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		l := sc.Text()
		for i := range len(l) {
			if l[i] == '#' && (i == 0 || l[i-1] == ' ' || l[i-1] == '\t') {
				l = l[:i]
				break
			}
		}
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		if check != nil {
			if err := check(l); err != nil {
				return fmt.Errorf("%s:%d: %v", name, n, err)
			}
		}
		if err := b.Add(l); err != nil {
			return fmt.Errorf("%s:%d: %v", name, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
}

// Unmatched returns, sorted, the entries that know none of sigs: the
// signatures and patterns of a baseline that a run no longer meets.
func (b *Set) Unmatched(sigs []string) []string {
	if b == nil {
		return nil
	}
	seen := map[string]bool{}
	for _, s := range sigs {
		seen[s] = true
	}
	var out []string
	for e := range b.exact {
		if !seen[e] {
			out = append(out, e)
		}
	}
	for _, p := range b.patterns {
		if !slices.ContainsFunc(sigs, func(s string) bool { m, _ := path.Match(p, s); return m }) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
