package baseline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// The baseline files, one reader each:
//
//   - a campaign's (gpudiff run --baseline): a previous run --report JSON
//     (its failures[].signature) or a text file of signatures and
//     signature patterns (ReadSignatures);
//   - the driver matrix's (gpudiff drivers --baseline): a previous
//     drivers --json report (its divergences[].key) or a text file of
//     matrix keys and key patterns (ReadKeys).
//
// In a text file, blank lines and comments ('#' opening a line or after
// a blank) are ignored (Set.AddText).

// ReadSignatures reads a campaign's known failures from file: a previous
// run --report JSON (the signatures of its "failures", the shape of
// campaign.ProgramRecord's "signature") or, when the file is not such a
// JSON document, a text file with one signature or signature pattern per
// line. Errors name the file (and the line of a malformed pattern).
func ReadSignatures(file string) (*Set, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	b := &Set{}
	var rep struct {
		Failures []struct {
			Signature string `json:"signature"`
		} `json:"failures"`
	}
	if json.Unmarshal(data, &rep) == nil {
		for _, f := range rep.Failures {
			if err := b.Add(f.Signature); err != nil {
				return nil, fmt.Errorf("%s: %v", file, err)
			}
		}
		return b, nil
	}
	if err := b.AddText(file, data, nil); err != nil {
		return nil, err
	}
	return b, nil
}

// ReadKeys reads the keys of known matrix divergences from path: either a
// report written by drivers --json (its "divergences"[].key; a JSON
// document is recognised by its first non-blank byte, '{'), or a text file
// with one key per line — case/adapter/function/format, e.g.
// "div_by_zero_i32/wgpu-vulkan:llvmpipe/original/wgsl" — or one key
// pattern (path.Match syntax, e.g. "*/wgpu-gl:llvmpipe/*/spirv" for every
// SPIR-V divergence on wgpu-gl). Errors: an unreadable file; a JSON report
// that does not decode or has a divergence without a key; a text line that
// is not four '/'-separated parts or is a malformed pattern
// ("path:line: ...").
func ReadKeys(path string) (*Set, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	known := &Set{}
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		var rep struct {
			Divergences []struct {
				Key string `json:"key"`
			} `json:"divergences"`
		}
		if err := json.Unmarshal(data, &rep); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		for i, d := range rep.Divergences {
			if d.Key == "" {
				return nil, fmt.Errorf("%s: divergences[%d] has no key", path, i)
			}
			if err := known.Add(d.Key); err != nil {
				return nil, fmt.Errorf("%s: divergences[%d]: %v", path, i, err)
			}
		}
		return known, nil
	}
	err = known.AddText(path, data, func(l string) error {
		if strings.Count(l, "/") != 3 {
			return fmt.Errorf("want a key case/adapter/function/format, got %q", l)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return known, nil
}

// FileSHA256 is the hex SHA-256 of a file's bytes: a campaign's journal
// records its baseline's (campaign.Spec.BaselineSHA256) so that a resume
// refuses a baseline changed since.
func FileSHA256(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}
