package drivers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/gpudiff/gpudiff/campaign"
)

// ReadBaseline reads the keys of known divergences from path: either a
// report written by --json (its "divergences"[].key; a JSON document is
// recognised by its first non-blank byte, '{'), or a text file with one
// key per line — case/adapter/function/format, e.g.
// "div_by_zero_i32/wgpu-vulkan:llvmpipe/original/wgsl" — or one key
// pattern (campaign.Baseline: path.Match syntax, e.g.
// "*/wgpu-gl:llvmpipe/*/spirv" for every SPIR-V divergence on wgpu-gl),
// where blank lines and comments ('#' opening a line or after a blank)
// are ignored. Errors: an unreadable file; a JSON report that does not
// decode or has a divergence without a key; a text line that is not four
// '/'-separated parts or is a malformed pattern ("path:line: ...").
func ReadBaseline(path string) (*campaign.Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	known := &campaign.Baseline{}
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
