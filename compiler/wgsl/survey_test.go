package wgsl

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/ir"
)

// surveyDir is a checkout of Dawn's test/tint (or any tree of .wgsl
// files); TestTintExtensionSurvey runs only when it is given:
//
//	git -C DAWN archive HEAD test/tint | tar -x -C /tmp/t
//	go test ./compiler/wgsl -run TestTintExtensionSurvey -survey-dir /tmp/t/test/tint -v
var surveyDir = flag.String("survey-dir", "", "a tree of WGSL files (Dawn's test/tint) for TestTintExtensionSurvey")

// TestTintExtensionSurvey is issue 40's measurement, not a check: over
// Tint's inputs whose only extension is f16 and that have a compute entry
// point, and those that enable subgroups, it runs the front end as `exec
// --no-gpu` does before the interpreter (Parse, then Entry for each
// compute entry point, FragmentEntry for a module with none) and logs
// how many are accepted and the refusals grouped by message (numbers
// and names blanked). Each accepted compute entry point is emitted
// (EmitEntry) and the emitted modules go to Tint: a refusal there fails
// the test (the emitter must write what Tint takes).
func TestTintExtensionSurvey(t *testing.T) {
	if *surveyDir == "" {
		t.Skip("no -survey-dir")
	}
	var files []string
	require.NoError(t, filepath.Walk(*surveyDir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() && strings.HasSuffix(p, ".wgsl") && !strings.Contains(p, ".expected.") {
			files = append(files, p)
		}
		return nil
	}))
	sort.Strings(files)
	tint := ptTintCheck(t)
	for _, set := range []struct {
		name string
		in   func(src string, enables []string) bool
	}{
		{"f16-only compute", func(src string, en []string) bool {
			return len(en) == 1 && en[0] == "f16" && strings.Contains(src, "@compute")
		}},
		{"subgroups", func(src string, en []string) bool {
			for _, e := range en {
				if e == "subgroups" {
					return true
				}
			}
			return false
		}},
	} {
		total, accepted := 0, 0
		groups := map[string][]string{}
		var emitted, from []string
		for _, p := range files {
			b, err := os.ReadFile(p)
			require.NoError(t, err)
			if !set.in(string(b), surveyEnables(string(b))) {
				continue
			}
			total++
			why, srcs := surveyRun(p, b)
			if why == "" {
				accepted++
				emitted = append(emitted, srcs...)
				for range srcs {
					from = append(from, p)
				}
				continue
			}
			g := surveyGroup(why)
			groups[g] = append(groups[g], p)
		}
		t.Logf("%s: %d files, %d accepted, %d refused (%.1f%%)", set.name, total, accepted, total-accepted, 100*float64(total-accepted)/float64(max(total, 1)))
		var keys []string
		for k := range groups {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool {
			if len(groups[keys[i]]) != len(groups[keys[j]]) {
				return len(groups[keys[i]]) > len(groups[keys[j]])
			}
			return keys[i] < keys[j]
		})
		for _, k := range keys {
			t.Logf("%5d  %s  (e.g. %s)", len(groups[k]), k, groups[k][0])
		}
		refused := 0
		for i := 0; i < len(emitted); i += 64 {
			j := min(i+64, len(emitted))
			for k, err := range tint.check(t, emitted[i:j]...) {
				if err != nil {
					refused++
					if refused <= 5 {
						t.Errorf("Tint refuses the module emitted for %s: %v\n%s", from[i+k], err, emitted[i+k])
					}
				}
			}
		}
		t.Logf("%s: %d emitted entry points, %d refused by Tint", set.name, len(emitted), refused)
	}
}

var (
	surveyEnableRe = regexp.MustCompile(`(?m)^\s*enable\s+([^;]+);`)
	surveyNumRe    = regexp.MustCompile(`[0-9]+`)
	surveyQuoteRe  = regexp.MustCompile(`'[^']*'`)
	surveyCallsRe  = regexp.MustCompile(`(calls|uses var|uses struct|uses const) [A-Za-z0-9_]+, which is outside the subset: `)
	surveyEntryRe  = regexp.MustCompile(`^entry point [A-Za-z0-9_]+ is outside the gpudiff subset: `)
)

func surveyEnables(src string) []string {
	var out []string
	for _, m := range surveyEnableRe.FindAllStringSubmatch(src, -1) {
		out = append(out, enableNames("enable "+m[1]+";")...)
	}
	return out
}

// surveyGroup blanks a refusal's position, names and numbers.
func surveyGroup(msg string) string {
	if i := strings.Index(msg, ": check: "); i >= 0 {
		msg = msg[i+len(": check: "):]
	} else if i := strings.Index(msg, ": parse: "); i >= 0 {
		msg = "parse: " + msg[i+len(": parse: "):]
	}
	msg = surveyEntryRe.ReplaceAllString(msg, "entry point outside the subset: ")
	msg = surveyCallsRe.ReplaceAllString(msg, "")
	msg = surveyQuoteRe.ReplaceAllString(msg, "'X'")
	msg = surveyNumRe.ReplaceAllString(msg, "N")
	if len(msg) > 140 {
		msg = msg[:140] + "…"
	}
	return msg
}

// surveyRun is exec --no-gpu's front end on one file: the first refusal
// ("" when every entry point it would run is accepted) and the emitted
// modules of the accepted compute entry points.
func surveyRun(path string, src []byte) (why string, emitted []string) {
	defer func() {
		if r := recover(); r != nil {
			why = fmt.Sprintf("panic: %v", r)
		}
	}()
	m, err := Parse(path, src)
	if err != nil {
		return strings.SplitN(err.Error(), "\n", 2)[0], nil
	}
	var computes, frags []string
	for _, f := range m.Funcs {
		switch f.Stage {
		case ir.StageCompute:
			computes = append(computes, f.Name)
		case ir.StageFragment:
			frags = append(frags, f.Name)
		}
	}
	for _, o := range m.Opaque {
		switch {
		case o.EntryPoint && strings.Contains(o.Text, "@compute"):
			computes = append(computes, o.Name)
		case o.EntryPoint && strings.Contains(o.Text, "@fragment"):
			frags = append(frags, o.Name)
		}
	}
	first := func(err error) string { return strings.SplitN(err.Error(), "\n", 2)[0] }
	for _, c := range computes {
		if _, err := Entry(m, c); err != nil {
			return first(err), nil
		}
		text, err := EmitEntry(m, c, EmitOptions{})
		if err != nil {
			return "emit: " + err.Error(), nil
		}
		emitted = append(emitted, text)
	}
	if len(computes) > 0 {
		return "", emitted
	}
	for _, f := range frags {
		if _, err := FragmentEntry(m, f); err != nil {
			return first(err), nil
		}
	}
	if len(frags) == 0 {
		if _, err := Kernel(m, ""); err != nil {
			return first(err), nil
		}
	}
	return "", nil
}
