package drivers

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/fuzz/gen"
	"github.com/gpudiff/gpudiff/ir"
)

// GeneratedRule is the rule under which generated programs are grouped in
// the per-rule summary.
const GeneratedRule = "generated"

// DefaultInvocations is the invocation count of a corpus kernel that has
// neither an inputs file nor a case record (arguments from gen.Inputs with
// seed 1, edge values first, as `gpudiff exec` does).
const DefaultInvocations = testcase.DefaultInvocations

// Case is one row of the driver matrix: a kernel with its arguments, and
// what it tests.
type Case struct {
	// Name identifies the case in keys and reports: a corpus file's base
	// name without .wgsl, or "gen-<index>-<hash8>" for a generated program.
	Name string
	// Path is the corpus file ("" for a generated program).
	Path string
	// Rule and Spec are the `// rule: ` and `// spec: ` header lines of a
	// conformance kernel (shaders/conformance/README.md); "" when absent.
	// Generated programs have Rule GeneratedRule.
	Rule, Spec string
	// Source is the WGSL text: the file as written, or ir.Print of a
	// generated module.
	Source string
	// Case is what runs (check.Execute): a function kernel and its
	// per-invocation arguments, a compute entry point as written with its
	// workgroups and bindings, or a fragment entry point as written over
	// a testcase.DefaultFragmentSize target.
	Case *testcase.Case
	// Seed locates a generated program (nil for corpus files).
	Seed *testcase.SeedInfo
}

// Module is the case's module.
func (c *Case) Module() *ir.Module {
	return c.Case.Module
}

// LoadCorpus reads every .wgsl file of dir, in name order: a case file
// (testcase.IsCase, of either kind: testcase.ParseCaseFile) carries its own
// kernel or entry point and inputs; another .wgsl file is a kernel — the
// function named like the file if there is one, else the module's only
// uncalled function (wgsl.Kernel) — with the arguments of NAME.inputs.json
// beside it, or DefaultInvocations generated ones; a module whose kernel
// is a compute entry point (wgsl.IsEntryMode) is an entry case: its
// bindings and "workgroups" from NAME.inputs.json (exec's form), or
// gen.EntryBindings and one workgroup without it; one whose kernel is a
// fragment entry point (wgsl.IsFragmentMode) a fragment case over a 16×16
// target (testcase.DefaultFragmentSize).
// Errors are positioned (file:line:col: …) and name the file.
func LoadCorpus(dir string) ([]*Case, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".wgsl") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no .wgsl files", dir)
	}
	var out []*Case
	for _, n := range names {
		path := filepath.Join(dir, n)
		// A module with several entry points of the stage that runs by
		// default (several fragment entry points of a draw among them)
		// is one case per entry point, named NAME.ENTRY (testcase.EachEntry,
		// as exec runs them in turn).
		if each := testcase.EachEntry(path, corpusOptions()); len(each) > 1 {
			for _, o := range each {
				c, err := loadFileWith(path, o)
				if err != nil {
					return nil, err
				}
				c.Name = keySafe(strings.TrimSuffix(n, ".wgsl") + "." + o.Kernel)
				out = append(out, c)
			}
			continue
		}
		c, err := LoadFile(path)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// corpusOptions are the loader's options of a corpus file (LoadFile).
func corpusOptions() testcase.LoadOptions {
	return testcase.LoadOptions{KernelNamedLikeFile: true, DefaultFill: testcase.FillEdges}
}

// LoadCorpora reads the corpus directories dirs in order (LoadCorpus), refusing
// two cases with the same name (a key names its case), and calls check, when
// non-nil, on each case as it is read: the caller's limits. Errors are
// LoadCorpus's, check's, or name both files of a duplicate name.
func LoadCorpora(dirs []string, check func(*Case) error) ([]*Case, error) {
	var cases []*Case
	seen := map[string]string{}
	for _, dir := range dirs {
		cs, err := LoadCorpus(dir)
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			if prev, ok := seen[c.Name]; ok {
				return nil, fmt.Errorf("gpudiff drivers: %s and %s have the same case name %q (keys must be unique)", prev, c.Path, c.Name)
			}
			seen[c.Name] = c.Path
			if check != nil {
				if err := check(c); err != nil {
					return nil, err
				}
			}
		}
		cases = append(cases, cs...)
	}
	return cases, nil
}

// LoadFile reads one corpus file (see LoadCorpus) with testcase.Load: the
// kernel named like the file when there is one, the inputs of
// NAME.inputs.json beside it (exec's form, and exec's errors), else seed 1's
// edge values (testcase.FillEdges: gen.Inputs, gen.EntryBindings).
func LoadFile(path string) (*Case, error) { return loadFileWith(path, corpusOptions()) }

// loadFileWith is LoadFile with the loader's options o.
func loadFileWith(path string, o testcase.LoadOptions) (*Case, error) {
	ac, err := testcase.Load(path, o)
	if err != nil {
		return nil, err
	}
	rule, spec := HeaderLines(ac.Source)
	c := &Case{Name: keySafe(strings.TrimSuffix(filepath.Base(path), ".wgsl")), Path: path, Rule: rule, Spec: spec, Source: string(ac.Source),
		Case: ac}
	if ac.Record != nil {
		c.Seed = ac.Record.Seed
	}
	return c, nil
}

// HeaderLines returns the text of the first `// rule: ` and `// spec: `
// lines of src's leading comment block (shaders/conformance/README.md).
func HeaderLines(src []byte) (rule, spec string) {
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		body, ok := strings.CutPrefix(l, "//")
		if !ok {
			break // the header ends at the first line of code
		}
		body = strings.TrimSpace(body)
		if r, ok := strings.CutPrefix(body, "rule:"); ok && rule == "" {
			rule = strings.TrimSpace(r)
		}
		if s, ok := strings.CutPrefix(body, "spec:"); ok && spec == "" {
			spec = strings.TrimSpace(s)
		}
	}
	return rule, spec
}

// Generated returns programs 0..n-1 of campaign seed (program i is
// gen.Generate(gen.ProgramSeed(seed, i), cfg), as `gpudiff run` generates
// it), each with invocations arguments from gen.Inputs, or, for a compute
// entry point (cfg.Profile "compute"), the generator's workgroups and the
// bindings gen.Bindings(seed) as a campaign dispatches it. Programs are kept
// inside flatten's subset and valid WGSL (cfg.OutsideSubset is forced
// negative): the matrix is about stacks, not about flatten's refusals.
func Generated(seed uint64, n, invocations int, cfg gen.Config) []*Case {
	cfg.OutsideSubset = -1
	out := make([]*Case, 0, n)
	for i := 0; i < n; i++ {
		ps := gen.ProgramSeed(seed, i)
		p := gen.Generate(ps, cfg)
		f := p.Module.Func(p.Kernel)
		hash := ir.Hash(ir.ProgramText(p.Module, p.Kernel))
		size := cfg.Size
		if size == 0 {
			size = gen.DefaultSize
		}
		prof := cfg.Profile.Name
		if prof == "" {
			prof = "default"
		}
		c := &Case{
			Name:   fmt.Sprintf("gen-%d-%s", i, hash[:8]),
			Rule:   GeneratedRule,
			Source: ir.Print(p.Module),
			Seed:   &testcase.SeedInfo{Campaign: seed, Index: i, Program: ps, Size: size, Profile: prof},
		}
		if p.IsEntry() {
			// A compute entry point (the compute profile): the dispatch
			// a campaign checks, its bindings gen.Bindings(seed).
			c.Case = testcase.NewComputeCase(p.Module, p.Kernel, p.Workgroups, testcase.MustBindingBuffers(p.Module, gen.Bindings(p.Seed, p.Module)))
			c.Case.Textures, c.Case.Samplers = p.Textures, p.Samplers
		} else {
			c.Case = testcase.NewKernelCase(p.Module, p.Kernel, gen.Inputs(ps, f.Params, invocations))
		}
		out = append(out, c)
	}
	return out
}

// keySafe makes a name usable as a key component (keys are
// case/adapter/function/format).
func keySafe(s string) string {
	return strings.NewReplacer("/", "_", " ", "_").Replace(s)
}
