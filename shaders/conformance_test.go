package shaders

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/compiler/spirv"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/harness/dawn"
	"github.com/gpudiff/gpudiff/harness/devices"
	"github.com/gpudiff/gpudiff/harness/worker"
	"github.com/gpudiff/gpudiff/interp"
	"github.com/gpudiff/gpudiff/ir"
)

// The conformance kernels (shaders/conformance/): one WGSL runtime rule
// each, with hand-derived expected values. Each kernel NAME is three files,
// in the format of shaders/examples (see doc.go): NAME.wgsl, whose leading
// comment has exactly one `// rule: ` line and one `// spec: ` line (the
// driver-matrix tool parses them) followed by the derivation of the
// expected values from the spec; NAME.inputs.json; NAME.expected.json. The
// kernel function is named NAME.
//
// What the tests here prove:
//   - TestConformanceFiles: the corpus is well formed, and every `spec:`
//     line names a section of the WGSL spec by its real anchor and title,
//     and quotes it verbatim (up to markup and "..." elisions).
//   - TestConformanceInterp: the interpreter agrees with every hand-derived
//     value bit-exactly, a cross-check of both.
//   - TestConformancePortableLavapipe: gpudiff's portable WGSL and SPIR-V
//     agree with every value on lavapipe; a difference is a gpudiff bug.
//   - TestConformanceRawMatrix: raw WGSL and SPIR-V on every adapter, in
//     worker processes; the differences are logged as the driver matrix,
//     not asserted (stacks legitimately diverge there).

const conformanceDir = "conformance"

// Invocation counts a conformance kernel must stay within: a few edge
// values and a couple of ordinary ones, so a driver engineer reads them all.
const (
	minConformanceInvocations = 4
	maxConformanceInvocations = 16
)

// specEnv overrides where the WGSL spec source (wgsl-spec.bs) is read from.
const specEnv = "GPUDIFF_WGSL_SPEC"

// conformanceSpecPath is the WGSL spec source the `spec:` lines cite:
// $GPUDIFF_WGSL_SPEC, else the shared reference copy beside the checkout.
func conformanceSpecPath() string {
	if p := os.Getenv(specEnv); p != "" {
		return p
	}
	return filepath.Join("..", "..", "shared", "reference", "wgsl-spec.bs")
}

// confKernel is one conformance kernel, parsed, with its inputs and
// expected outputs decoded with the parsed types.
type confKernel struct {
	name    string
	src     []byte
	rule    string // the `rule:` line's text
	spec    string // the `spec:` line's text
	m       *ir.Module
	abi     *ir.KernelABI
	params  []field
	outputs []field
	args    [][]ir.Value // args[i][j]: parameter j of invocation i
	want    [][]ir.Value // want[i][j]: output j of invocation i
	rawWant []byte       // NAME.expected.json as stored
}

func confPath(name, suffix string) string { return filepath.Join(conformanceDir, name+suffix) }

// conformanceNames lists the stems of shaders/conformance/*.wgsl, sorted.
func conformanceNames(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(conformanceDir, "*.wgsl"))
	require.NoError(t, err)
	require.NotEmpty(t, files, "no conformance kernels in %s", conformanceDir)
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(filepath.Base(f), ".wgsl"))
	}
	sort.Strings(names)
	return names
}

// headerLines returns the leading `//` comment block of src, each line
// without its `//` and one following space.
func headerLines(src []byte) []string {
	var out []string
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimRight(line, "\r")
		if !strings.HasPrefix(line, "//") {
			break
		}
		out = append(out, strings.TrimPrefix(strings.TrimPrefix(line, "//"), " "))
	}
	return out
}

// ruleAndSpec returns the `rule:` and `spec:` lines of src's header. It
// fails the test unless there is exactly one of each in the header and none
// elsewhere in the file.
func ruleAndSpec(t testing.TB, name string, src []byte) (rule, spec string) {
	t.Helper()
	var rules, specs []string
	for _, l := range headerLines(src) {
		if r, ok := strings.CutPrefix(l, "rule:"); ok {
			rules = append(rules, strings.TrimSpace(r))
		}
		if s, ok := strings.CutPrefix(l, "spec:"); ok {
			specs = append(specs, strings.TrimSpace(s))
		}
	}
	require.Len(t, rules, 1, "%s.wgsl: the header must have exactly one `// rule: ` line", name)
	require.Len(t, specs, 1, "%s.wgsl: the header must have exactly one `// spec: ` line", name)
	all := regexp.MustCompile(`(?m)^\s*//\s*(rule|spec):`).FindAll(src, -1)
	require.Len(t, all, 2, "%s.wgsl: `rule:` and `spec:` lines belong in the header only", name)
	require.NotEmpty(t, rules[0], "%s.wgsl: empty rule", name)
	return rules[0], specs[0]
}

// loadConformance reads, parses and decodes conformance kernel name.
func loadConformance(t testing.TB, name string) *confKernel {
	t.Helper()
	k := &confKernel{name: name}
	var err error
	k.src, err = os.ReadFile(confPath(name, ".wgsl"))
	require.NoError(t, err)
	k.rule, k.spec = ruleAndSpec(t, name, k.src)
	k.m, err = wgsl.Parse(confPath(name, ".wgsl"), k.src)
	require.NoError(t, err)
	kf, err := wgsl.Kernel(k.m, "")
	require.NoError(t, err)
	require.Equal(t, name, kf.Name, "the kernel of %s.wgsl must be named after the file", name)
	k.abi, err = ir.NewKernelABI(k.m, name)
	require.NoError(t, err)
	for _, f := range k.abi.Inputs {
		k.params = append(k.params, field{f.Name, f.T})
	}
	for _, f := range k.abi.Outputs {
		k.outputs = append(k.outputs, field{f.Name, f.T})
	}

	raw, err := os.ReadFile(confPath(name, ".inputs.json"))
	require.NoError(t, err)
	var inputs map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &inputs), "%s.inputs.json", name)
	require.ElementsMatch(t, fieldNames(k.params), slices.Collect(maps.Keys(inputs)),
		"%s.inputs.json: keys must be exactly the kernel's parameters", name)
	n := -1
	for j, p := range k.params {
		var vals []json.RawMessage
		require.NoError(t, json.Unmarshal(inputs[p.name], &vals), "%s.inputs.json: %s", name, p.name)
		if n < 0 {
			n = len(vals)
			k.args = make([][]ir.Value, n)
			for i := range k.args {
				k.args[i] = make([]ir.Value, len(k.params))
			}
		}
		require.Len(t, vals, n, "%s.inputs.json: %s has %d values, %s has %d", name, p.name, len(vals), k.params[0].name, n)
		for i, r := range vals {
			v, err := ir.UnmarshalValue(p.t, r)
			require.NoError(t, err, "%s.inputs.json: %s[%d]", name, p.name, i)
			k.args[i][j] = v
		}
	}
	require.GreaterOrEqual(t, n, minConformanceInvocations, "%s: too few invocations", name)
	require.LessOrEqual(t, n, maxConformanceInvocations, "%s: too many invocations", name)

	k.rawWant, err = os.ReadFile(confPath(name, ".expected.json"))
	require.NoError(t, err)
	var exp expectedFile
	dec := json.NewDecoder(bytes.NewReader(k.rawWant))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&exp), "%s.expected.json", name)
	require.Equal(t, name, exp.Kernel, "%s.expected.json: kernel", name)
	require.Len(t, exp.Reference, n, "%s.expected.json: one reference per invocation", name)
	// The example decoder does the per-invocation work (bare value or
	// object keyed by output name).
	ex := example{name: name, expected: exp}
	for i := range n {
		k.want = append(k.want, ex.decodeReference(t, i, k.outputs))
	}
	return k
}

// loadAllConformance loads every conformance kernel once per test binary.
var (
	confOnce    sync.Once
	confKernels []*confKernel
)

func allConformance(t *testing.T) []*confKernel {
	t.Helper()
	confOnce.Do(func() {
		for _, name := range conformanceNames(t) {
			confKernels = append(confKernels, loadConformance(t, name))
		}
	})
	require.NotEmpty(t, confKernels, "loading the conformance kernels failed in an earlier test")
	return confKernels
}

// specLineRE parses a `spec:` line: `WGSL #anchor (Section Title)`,
// optionally followed by `, "a quoted sentence"` in which "..." elides.
var specLineRE = regexp.MustCompile(`^WGSL #([A-Za-z0-9_-]+) \((.+?)\)(?:, "(.+)")?$`)

// specHeadingRE matches a Bikeshed section heading with its anchor.
var specHeadingRE = regexp.MustCompile(`^#+ (.+?) #+ \{#([A-Za-z0-9_-]+)\}\s*$`)

// specSection returns the title of the section anchored at anchor in the
// spec source and its text up to the next heading, or ok false.
func specSection(spec []string, anchor string) (title, text string, ok bool) {
	for i, l := range spec {
		m := specHeadingRE.FindStringSubmatch(l)
		if m == nil || m[2] != anchor {
			continue
		}
		var body []string
		for _, b := range spec[i+1:] {
			if strings.HasPrefix(b, "#") && specHeadingRE.MatchString(b) {
				break
			}
			body = append(body, b)
		}
		return strings.ReplaceAll(m[1], "`", ""), strings.Join(body, "\n"), true
	}
	return "", "", false
}

var (
	specLinkRE    = regexp.MustCompile(`\[\[#[^|\]]*\|([^\]]*)\]\]`) // [[#anchor|text]]
	specDfnRE     = regexp.MustCompile(`\[=([^=\]]*?)=\]`)           // [=term=], [=a|b=], [=for/term=]
	specTagRE     = regexp.MustCompile(`<[^>]*>`)
	specSpaceRE   = regexp.MustCompile(`\s+`)
	specBulletRE  = regexp.MustCompile(`(?m)^\s*\* `)
	specEmphRE    = regexp.MustCompile("\\*([^*\\s`][^*`]*?)\\*")
	specEntityMap = strings.NewReplacer("&nbsp;", " ", "&div;", "÷", "&times;", "×", "&minus;", "-",
		"&le;", "≤", "&lt;", "<", "&gt;", ">", "&amp;", "&")
)

// specPlain turns Bikeshed source into the plain text a reader sees, close
// enough to compare quoted sentences: links and definitions become their
// text, tags, bullets, emphasis and variable bars go, <sup> becomes ^,
// entities are decoded and white space collapses.
func specPlain(s string) string {
	s = specLinkRE.ReplaceAllString(s, "$1")
	s = specDfnRE.ReplaceAllStringFunc(s, func(d string) string {
		d = strings.TrimSuffix(strings.TrimPrefix(d, "[="), "=]")
		if i := strings.LastIndex(d, "|"); i >= 0 {
			d = d[i+1:]
		}
		if i := strings.LastIndex(d, "/"); i >= 0 {
			d = d[i+1:]
		}
		return d
	})
	s = specBulletRE.ReplaceAllString(s, " ")
	s = specEmphRE.ReplaceAllString(s, "$1")
	s = strings.ReplaceAll(s, "<sup>", "^")
	s = specTagRE.ReplaceAllString(s, "")
	s = specEntityMap.Replace(s)
	s = strings.NewReplacer("|", "", "`", "").Replace(s)
	return strings.TrimSpace(specSpaceRE.ReplaceAllString(s, " "))
}

// citedSpecPath is the committed excerpt of the WGSL spec source: the
// sections the conformance kernels and TestCheckCitation cite, each
// heading and body as the spec has them, so citations are checked on
// every machine (the full spec lives outside the repository).
const citedSpecPath = "testdata/wgsl-spec-cited.bs"

// citedSpecHeader opens the excerpt.
const citedSpecHeader = `<!-- Excerpt of the WGSL specification source (https://github.com/gpuweb/gpuweb,
wgsl/index.bs; W3C Software and Document License): the sections gpudiff's
conformance kernels cite. Generated by TestCitedSpecExcerpt from the full
source (go test ./shaders -run TestCitedSpecExcerpt -update); do not edit. -->
`

// readSpec returns the WGSL spec source as lines: the full source when it
// is found (GPUDIFF_WGSL_SPEC, or the shared reference copy), else the
// committed excerpt of the cited sections, which specSection reads the
// same way.
func readSpec(t *testing.T) []string {
	t.Helper()
	src, err := os.ReadFile(conformanceSpecPath())
	if os.IsNotExist(err) {
		src, err = os.ReadFile(citedSpecPath)
	}
	require.NoError(t, err)
	return strings.Split(string(src), "\n")
}

// citedAnchors returns every anchor a conformance kernel (shaders/conformance
// and shaders/compute/conformance_*) or TestCheckCitation cites, sorted.
func citedAnchors(t *testing.T) []string {
	set := map[string]bool{"arithmetic-expr": true, "extractBits-signed-builtin": true, "integer-types": true, "bit-expr": true}
	for _, name := range conformanceNames(t) {
		k := loadConformance(t, name)
		if m := specLineRE.FindStringSubmatch(k.spec); m != nil {
			set[m[1]] = true
		}
	}
	// The compute conformance kernels (shaders/compute/conformance_*).
	for _, f := range computeConformanceFiles(t) {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		_, line := ruleAndSpec(t, strings.TrimSuffix(filepath.Base(f), ".wgsl"), src)
		if m := specLineRE.FindStringSubmatch(line); m != nil {
			set[m[1]] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// citedExcerpt builds the excerpt of spec for anchors: each section's
// heading line and body (up to the next heading), in anchor order.
func citedExcerpt(spec []string, anchors []string) (string, error) {
	var b strings.Builder
	b.WriteString(citedSpecHeader)
	for _, a := range anchors {
		found := false
		for i, l := range spec {
			if m := specHeadingRE.FindStringSubmatch(l); m == nil || m[2] != a {
				continue
			}
			found = true
			b.WriteString("\n" + l + "\n")
			for _, body := range spec[i+1:] {
				if strings.HasPrefix(body, "#") && specHeadingRE.MatchString(body) {
					break
				}
				b.WriteString(body + "\n")
			}
			break
		}
		if !found {
			return "", fmt.Errorf("the WGSL spec has no section {#%s}", a)
		}
	}
	return b.String(), nil
}

// TestCitedSpecExcerpt: the committed excerpt holds exactly the cited
// sections as the full spec source has them (checked where the full
// source is found; -update rewrites the excerpt from it).
func TestCitedSpecExcerpt(t *testing.T) {
	src, err := os.ReadFile(conformanceSpecPath())
	if os.IsNotExist(err) {
		t.Logf("WGSL spec source not found at %s (set %s): the committed excerpt is used as it is", conformanceSpecPath(), specEnv)
		_, err := os.Stat(citedSpecPath)
		require.NoError(t, err, "the excerpt %s is committed", citedSpecPath)
		return
	}
	require.NoError(t, err)
	want, err := citedExcerpt(strings.Split(string(src), "\n"), citedAnchors(t))
	require.NoError(t, err)
	if *update {
		require.NoError(t, os.WriteFile(citedSpecPath, []byte(want), 0o644))
		return
	}
	got, err := os.ReadFile(citedSpecPath)
	require.NoError(t, err)
	assert.Equal(t, want, string(got), "%s is stale: go test ./shaders -run TestCitedSpecExcerpt -update", citedSpecPath)
}

// checkCitation checks a `spec:` line against the spec source: it must read
// `WGSL #anchor (Title)` or `WGSL #anchor (Title), "quote"`; the spec must
// have a section heading with that {#anchor} and that title (backticks
// dropped); and each "..."-separated piece of the quote must occur in that
// section's plain text (specPlain), in order.
func checkCitation(spec []string, line string) error {
	m := specLineRE.FindStringSubmatch(line)
	if m == nil {
		return fmt.Errorf("spec line %q is not `WGSL #anchor (Title)[, \"quote\"]`", line)
	}
	title, text, ok := specSection(spec, m[1])
	if !ok {
		return fmt.Errorf("the WGSL spec has no section {#%s}", m[1])
	}
	if title != m[2] {
		return fmt.Errorf("section {#%s} is titled %q, not %q", m[1], title, m[2])
	}
	if m[3] == "" {
		return nil
	}
	rest := specPlain(text)
	for _, piece := range strings.Split(m[3], "...") {
		piece = strings.TrimSpace(piece)
		i := strings.Index(rest, piece)
		if i < 0 {
			return fmt.Errorf("%q does not occur (after the earlier pieces of the quote) in #%s, which reads:\n%s", piece, m[1], specPlain(text))
		}
		rest = rest[i+len(piece):]
	}
	return nil
}

// TestCheckCitation pins the citation checker on the real spec: it accepts
// a correct citation and rejects a wrong anchor, a wrong title, a quote
// that is not in the section, and pieces quoted out of order.
func TestCheckCitation(t *testing.T) {
	spec := readSpec(t)
	ok := `WGSL #arithmetic-expr (Arithmetic Expressions), "If e2 is zero ... Otherwise, e1."`
	assert.NoError(t, checkCitation(spec, ok))
	assert.NoError(t, checkCitation(spec, `WGSL #extractBits-signed-builtin (extractBits (signed))`))
	assert.NoError(t, checkCitation(spec, `WGSL #integer-types (Integer Types), "that is modulo 2^bitwidth"`))
	for _, bad := range []string{
		`#arithmetic-expr (Arithmetic Expressions)`,
		`WGSL #arithmetic-expression (Arithmetic Expressions)`,
		`WGSL #arithmetic-expr (Bit Expressions)`,
		`WGSL #arithmetic-expr (Arithmetic Expressions), "If e2 is zero ... Otherwise, e2."`,
		`WGSL #arithmetic-expr (Arithmetic Expressions), "Otherwise, 0. ... If e2 is zero"`,
		`WGSL #bit-expr (Bit Expressions), "If e2 is zero"`,
	} {
		assert.Error(t, checkCitation(spec, bad), bad)
	}
}

// TestConformanceFiles checks the corpus shape and every kernel's header:
// its three files and nothing else (but README.md); exactly one `rule:` and one `spec:`
// line; the citation (checkCitation, on the full spec source or the
// committed excerpt of the cited sections); the
// expected file in canonical form (one invocation per line, ir's JSON form).
func TestConformanceFiles(t *testing.T) {
	names := conformanceNames(t)
	entries, err := os.ReadDir(conformanceDir)
	require.NoError(t, err)
	for _, e := range entries {
		if e.Name() == "README.md" {
			continue
		}
		stem, suffix, _ := strings.Cut(e.Name(), ".")
		assert.Contains(t, names, stem, "%s belongs to no conformance kernel", e.Name())
		assert.Contains(t, []string{"wgsl", "inputs.json", "expected.json"}, suffix, "unexpected file %s", e.Name())
	}
	spec := readSpec(t)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			k := loadConformance(t, name)
			assert.NoError(t, checkCitation(spec, k.spec), "%s.wgsl", name)
			assert.Equal(t, string(formatExpected(name, k.outputs, k.want)), string(k.rawWant),
				"%s.expected.json is not in canonical form (one invocation per line)", name)
		})
	}
}

// TestConformanceInterp runs every conformance kernel in the reference
// interpreter and checks each output against the hand-derived value
// bit-exactly. Where the two disagree, one of them is wrong: read the spec
// sentence the kernel cites. The one latitude is the sign of an f32 zero,
// which WGSL lets implementations ignore (WGSL #differences-from-ieee754:
// "Implementations may ignore the sign field of a floating point zero
// value"), so the expected files cannot pin it; a differing sign is
// logged. No leaf may be indeterminate: the kernels stay inside WGSL's
// determinate domain.
func TestConformanceInterp(t *testing.T) {
	for _, k := range allConformance(t) {
		t.Run(k.name, func(t *testing.T) {
			invs, err := interp.Run(k.m, k.name, k.args, interp.Options{})
			require.NoError(t, err)
			require.Len(t, invs, len(k.args))
			for i, inv := range invs {
				require.NoError(t, inv.Err, "invocation %d (%s)", i, argString(k.args[i]))
				require.Len(t, inv.Outputs, len(k.outputs))
				for j, out := range inv.Outputs {
					for l, ind := range out.Indeterminate {
						assert.False(t, ind, "invocation %d (%s), output %s leaf %d is indeterminate: %s",
							i, argString(k.args[i]), k.outputs[j].name, l, out.Why)
					}
					want := k.want[i][j]
					if ir.Equal(want, out.Value) {
						continue
					}
					if len(sameLeaves(want, out.Value, nil)) == 0 {
						t.Logf("invocation %d (%s), output %s: interp %s, expected %s: only the sign of a zero differs (WGSL leaves it free)",
							i, argString(k.args[i]), k.outputs[j].name, ir.MarshalValue(out.Value), ir.MarshalValue(want))
						continue
					}
					t.Errorf("invocation %d (%s), output %s: interp %s, expected %s (rule: %s; spec: %s)",
						i, argString(k.args[i]), k.outputs[j].name, ir.MarshalValue(out.Value), ir.MarshalValue(want), k.rule, k.spec)
				}
			}
		})
	}
}

// confDiffs compares the decoded outputs of a GPU run with the expected
// values and returns one description per differing output, keyed by
// invocation: integers and bools exactly, f32 bit-exactly up to the sign
// of zero and subnormal flushing (sameLeaves with no tolerance: every
// conformance value is exact).
func (k *confKernel) confDiffs(got [][]ir.Value) []string {
	var diffs []string
	for i := range got {
		for j := range k.outputs {
			if d := sameLeaves(k.want[i][j], got[i][j], nil); len(d) > 0 {
				diffs = append(diffs, fmt.Sprintf("invocation %d (%s), output %s: got %s, want %s",
					i, argString(k.args[i]), k.outputs[j].name, ir.MarshalValue(got[i][j]), ir.MarshalValue(k.want[i][j])))
			}
		}
	}
	return diffs
}

// confFormat is one way a kernel reaches a GPU: gpudiff's WGSL or its
// SPIR-V, in one emission mode.
type confFormat struct {
	name string // "wgsl" or "spirv"
	raw  bool
}

// kernel emits k in format f: the kernel ABI wrapper around k's call graph.
func (k *confKernel) kernel(f confFormat) (harness.Kernel, error) {
	label := k.name + "/" + f.name
	if f.name == "spirv" {
		mode := spirv.Portable
		if f.raw {
			mode = spirv.Raw
		}
		words, err := spirv.Emit(k.m, k.name, spirv.Options{Mode: mode})
		if err != nil {
			return harness.Kernel{}, err
		}
		return harness.Kernel{SPIRV: words, EntryPoint: spirv.EntryPoint, Label: label}, nil
	}
	mode := wgsl.Portable
	if f.raw {
		mode = wgsl.Raw
	}
	src, entry, err := wgsl.Emit(k.m, k.name, wgsl.EmitOptions{Mode: mode})
	if err != nil {
		return harness.Kernel{}, err
	}
	return harness.Kernel{WGSL: src, EntryPoint: entry, Label: label}, nil
}

// run emits k in format f, runs it on r and decodes the outputs.
func (k *confKernel) run(t *testing.T, r harness.Runner, f confFormat) ([][]ir.Value, harness.Kernel, error) {
	t.Helper()
	hk, err := k.kernel(f)
	require.NoError(t, err, "emitting %s as %s", k.name, f.name)
	in, err := k.abi.EncodeInputs(k.args)
	require.NoError(t, err)
	n := len(k.args)
	out, err := r.Run(context.Background(), hk, harness.Dispatch{Input: in, OutputSize: n * k.abi.OutputStride, Invocations: n})
	if err != nil {
		return nil, hk, err
	}
	got, err := k.abi.DecodeOutputs(out, n)
	require.NoError(t, err)
	return got, hk, nil
}

// TestConformancePortableLavapipe runs every conformance kernel on lavapipe
// as gpudiff's portable WGSL and as its portable SPIR-V and requires every
// output to equal the hand-derived value. Portable mode spells WGSL's rules
// out (guarded division, masked shift counts, clamped conversions, ...), so
// a difference here is a bug in gpudiff's emitters (or a driver bug on
// plain operations), never a spec gap.
func TestConformancePortableLavapipe(t *testing.T) {
	dev := lavapipeDevice(t)
	for _, k := range allConformance(t) {
		for _, f := range []confFormat{{name: "wgsl"}, {name: "spirv"}} {
			t.Run(k.name+"/"+f.name, func(t *testing.T) {
				got, hk, err := k.run(t, dev, f)
				require.NoError(t, err, "portable %s of %s on lavapipe", f.name, k.name)
				diffs := k.confDiffs(got)
				for _, d := range diffs {
					t.Errorf("%s (rule: %s)", d, k.rule)
				}
				if len(diffs) > 0 && hk.WGSL != "" {
					t.Logf("emitted WGSL:\n%s", hk.WGSL)
				}
			})
		}
	}
}

// TestMain lets this test binary serve as its own harness worker process
// (harness/worker re-executes the running binary, with MarkerEnv set), so
// that the raw-mode runs of TestConformanceRawMatrix happen in worker
// processes: raw SPIR-V may be undefined (OpSDiv by zero, SClamp with
// min > max, shifts by 32 or more), and a driver that crashes on it must
// cost one dispatch, not the test process.
func TestMain(m *testing.M) {
	if os.Getenv(worker.MarkerEnv) == "1" {
		if err := worker.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "shaders test worker:", err)
			os.Exit(worker.ExitServeError)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// rawRunTimeout bounds one raw run, compilation included, on any adapter.
const rawRunTimeout = 60 * time.Second

// confRawSkip lists kernels not to run in a raw format, with the reason.
// Worker isolation makes crashes and hangs ordinary matrix cells, so this
// stays empty unless a raw kernel harms the machine beyond its worker.
var confRawSkip = map[string]string{}

// Outcomes of one raw run (one cell of the matrix).
const (
	cellPass    = "pass"
	cellDiff    = "DIFF"
	cellCompile = "compile-error"
	cellCrash   = "crash"
	cellTimeout = "timeout"
	cellNA      = "n/a"
	cellSkip    = "skip"
	cellError   = "error"
)

// cellMark is the one-character form of an outcome in the logged table.
var cellMark = map[string]string{
	cellPass: ".", cellDiff: "X", cellCompile: "C", cellCrash: "!", cellTimeout: "T",
	cellNA: " ", cellSkip: "s", cellError: "E",
}

// rawCell is the outcome of one kernel in one raw format on one adapter.
type rawCell struct {
	outcome string
	detail  []string // the differing invocations, or the error
}

// rawColumn is one adapter × format of the matrix.
type rawColumn struct {
	adapter harness.AdapterInfo
	format  confFormat
}

func (c rawColumn) String() string { return c.adapter.Name + " " + c.format.name }

// openRawRunner opens adapter a for raw runs as gpudiff does
// (harness/devices: wgpu's adapters in a worker process, Dawn's through
// harness.OpenAny). The Runner is nil exactly when the error is not.
func openRawRunner(a harness.AdapterInfo) (harness.Runner, error) {
	set, err := devices.Open([]string{a.Name}, devices.Options{})
	if err != nil {
		return nil, err
	}
	return set[0], nil
}

// classifyRaw turns a run's error into a matrix outcome.
func classifyRaw(err error) rawCell {
	var ce *harness.CompileError
	var crash *worker.CrashError
	var timeout *worker.TimeoutError
	var de *harness.DeviceError
	switch {
	case errors.Is(err, dawn.ErrNoSPIRV):
		return rawCell{outcome: cellNA}
	case errors.As(err, &ce):
		return rawCell{outcome: cellCompile, detail: []string{firstLine(ce.Message)}}
	case errors.As(err, &crash):
		return rawCell{outcome: cellCrash, detail: []string{crash.Error()}}
	case errors.As(err, &timeout), errors.Is(err, context.DeadlineExceeded):
		return rawCell{outcome: cellTimeout, detail: []string{err.Error()}}
	case errors.As(err, &de) && de.Op == "worker":
		return rawCell{outcome: cellCrash, detail: []string{de.Error()}}
	}
	return rawCell{outcome: cellError, detail: []string{err.Error()}}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// TestConformanceRawMatrix runs every conformance kernel as raw WGSL and
// raw SPIR-V (operators as written: the stack must implement WGSL's rules
// itself) on every adapter this machine has, wgpu's (harness.Adapters) and
// those of the other registered implementations (Dawn's), and logs the
// driver matrix: which kernel diverges from its hand-derived values on which
// adapter and format. Divergence is not a failure here: it is what the
// matrix reports. What must hold is that every cell has an outcome about the
// stack — a pass, a difference, a compile error, a crash or a timeout of
// the worker — and none that implicates the test itself (an emitter error,
// an invalid dispatch, an adapter that cannot be opened).
func TestConformanceRawMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("raw matrix: every kernel on every adapter (skipped with -short)")
	}
	kernels := allConformance(t)
	adapters, err := harness.AllAdapters()
	if len(adapters) == 0 {
		require.NoError(t, err)
	}
	if err != nil {
		t.Logf("some implementation could not list its adapters: %v", err)
	}
	var cols []rawColumn
	for _, a := range adapters {
		for _, f := range []confFormat{{name: "wgsl", raw: true}, {name: "spirv", raw: true}} {
			cols = append(cols, rawColumn{adapter: a, format: f})
		}
	}
	// cells[c][k] is kernel k in column c. Each adapter runs in its own
	// goroutine on its own runner (worker process or node process).
	cells := make([][]rawCell, len(cols))
	var wg sync.WaitGroup
	for _, a := range adapters {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := openRawRunner(a)
			for c, col := range cols {
				if col.adapter.Name != a.Name {
					continue
				}
				cells[c] = make([]rawCell, len(kernels))
				for i, k := range kernels {
					cells[c][i] = rawRun(k, r, err, col.format)
				}
			}
			if r != nil {
				r.Close()
			}
		}()
	}
	wg.Wait()

	// Drop columns with nothing to say (Dawn takes no SPIR-V).
	var shown []int
	for c := range cols {
		for _, cell := range cells[c] {
			if cell.outcome != cellNA {
				shown = append(shown, c)
				break
			}
		}
	}
	t.Logf("raw-mode driver matrix (%d kernels; . pass, X differs from the WGSL rule, C compile error, ! crash, T timeout, s skipped, E harness error):\n%s",
		len(kernels), rawMatrixTable(kernels, cols, cells, shown))
	var details strings.Builder
	for _, c := range shown {
		for i, cell := range cells[c] {
			if cell.outcome == cellPass || cell.outcome == cellNA {
				continue
			}
			fmt.Fprintf(&details, "%s on %s: %s (rule: %s)\n", kernels[i].name, cols[c], cell.outcome, kernels[i].rule)
			for _, d := range cell.detail {
				fmt.Fprintf(&details, "    %s\n", d)
			}
			assert.NotEqual(t, cellError, cell.outcome, "%s on %s: %v", kernels[i].name, cols[c], cell.detail)
		}
	}
	if details.Len() > 0 {
		t.Logf("divergences:\n%s", details.String())
	}
}

// rawRun runs k in raw format f on r (opened with openErr) and classifies
// the outcome.
func rawRun(k *confKernel, r harness.Runner, openErr error, f confFormat) rawCell {
	if why, ok := confRawSkip[k.name+"/"+f.name]; ok {
		return rawCell{outcome: cellSkip, detail: []string{why}}
	}
	if openErr != nil {
		return rawCell{outcome: cellError, detail: []string{"opening the adapter: " + openErr.Error()}}
	}
	hk, err := k.kernel(f)
	if err != nil {
		return rawCell{outcome: cellError, detail: []string{"emitting: " + err.Error()}}
	}
	in, err := k.abi.EncodeInputs(k.args)
	if err != nil {
		return rawCell{outcome: cellError, detail: []string{"encoding inputs: " + err.Error()}}
	}
	n := len(k.args)
	// wgpu's workers time out on their own (worker.DefaultTimeout); the
	// deadline bounds Dawn's, which kills its node worker when it passes.
	ctx, cancel := context.WithTimeout(context.Background(), rawRunTimeout)
	defer cancel()
	out, err := r.Run(ctx, hk, harness.Dispatch{Input: in, OutputSize: n * k.abi.OutputStride, Invocations: n})
	if err != nil {
		return classifyRaw(err)
	}
	got, err := k.abi.DecodeOutputs(out, n)
	if err != nil {
		return rawCell{outcome: cellError, detail: []string{"decoding outputs: " + err.Error()}}
	}
	if diffs := k.confDiffs(got); len(diffs) > 0 {
		return rawCell{outcome: cellDiff, detail: diffs}
	}
	return rawCell{outcome: cellPass}
}

// rawMatrixTable renders the matrix: a row per kernel, a column per shown
// adapter × format, numbered and named in a legend above the rows.
func rawMatrixTable(kernels []*confKernel, cols []rawColumn, cells [][]rawCell, shown []int) string {
	var b strings.Builder
	for j, c := range shown {
		fmt.Fprintf(&b, "  [%d] %s\n", j+1, cols[c])
	}
	width := 0
	for _, k := range kernels {
		width = max(width, len(k.name))
	}
	fmt.Fprintf(&b, "  %-*s", width, "kernel")
	for j := range shown {
		fmt.Fprintf(&b, " %3d", j+1)
	}
	b.WriteString("\n")
	for i, k := range kernels {
		fmt.Fprintf(&b, "  %-*s", width, k.name)
		for _, c := range shown {
			fmt.Fprintf(&b, " %3s", cellMark[cells[c][i].outcome])
		}
		b.WriteString("\n")
	}
	return b.String()
}
