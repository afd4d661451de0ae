package drivers

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// ReadBaseline reads the keys of known divergences from path: either a
// report written by --json (its "divergences"[].key; a JSON document is
// recognised by its first non-blank byte, '{'), or a text file with one
// key per line — case/adapter/function/format, e.g.
// "div_by_zero_i32/wgpu-vulkan:llvmpipe/original/wgsl" — where blank
// lines and lines starting with '#' are ignored.
func ReadBaseline(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
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
			known[d.Key] = true
		}
		return known, nil
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.Count(l, "/") != 3 {
			return nil, fmt.Errorf("%s:%d: want a key case/adapter/function/format, got %q", path, line, l)
		}
		known[l] = true
	}
	return known, sc.Err()
}
