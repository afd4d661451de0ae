package check

import (
	"errors"
	"testing"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/ir"
	"github.com/gpudiff/gpudiff/oracle"
	"github.com/stretchr/testify/assert"
)

// TestJudgeReplay: a replay reproduces when a finding of a recorded class
// family occurs again (vendor recorded, stack now: the same disagreement
// seen on one adapter), is fixed without findings, and is different
// otherwise; a record without findings is matched by its verdict.
func TestJudgeReplay(t *testing.T) {
	vendor := &testcase.CaseRecord{Verdict: "mismatch", Findings: []testcase.FindingRecord{{Class: string(ClassVendor)}}}
	stack := []Finding{{Class: ClassStack, Implicates: "the stack"}}
	for _, tc := range []struct {
		name    string
		rec     *testcase.CaseRecord
		now     []Finding
		outcome string
		message string
	}{
		{"vendor replayed alone is stack", vendor, stack, ReplayReproduces, "repro: REPRODUCES: stack — the stack"},
		{"no finding", vendor, nil, ReplayFixed, "repro: the recorded failure (vendor) no longer reproduces: every run agrees"},
		{"another class", vendor, []Finding{{Class: ClassSPIRV, Implicates: "gpudiff's SPIR-V"}}, ReplayDifferent,
			"repro: fails differently: recorded vendor, now spirv — gpudiff's SPIR-V"},
		{"stack recorded, vendor now", &testcase.CaseRecord{Findings: []testcase.FindingRecord{{Class: string(ClassStack)}}}, []Finding{{Class: ClassVendor}}, ReplayReproduces, "repro: REPRODUCES: vendor"},
		{"verdict only", &testcase.CaseRecord{Verdict: "timeout"}, []Finding{{Class: ClassTimeout}}, ReplayReproduces, "repro: REPRODUCES: timeout"},
		{"flatten recorded, flatten-refused now", &testcase.CaseRecord{Findings: []testcase.FindingRecord{{Class: string(ClassFlatten)}}}, []Finding{{Class: ClassFlattenRefused}}, ReplayDifferent,
			"repro: fails differently: recorded flatten, now flatten-refused"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := JudgeReplay(tc.rec, tc.now)
			assert.Equal(t, tc.outcome, out.Outcome)
			assert.Equal(t, tc.message, out.Message)
			assert.NotRegexp(t, `—\s*$`, out.Message, "no dash with nothing after it (issue 25)")
			assert.Len(t, out.Now, len(tc.now))
			assert.NotNil(t, out.Recorded)
		})
	}
}

// TestReplayFindingsPrependsFlattenRefusal: a record that asks for the
// twin, replayed where flatten refuses, finds flatten-refused first.
func TestReplayFindingsPrependsFlattenRefusal(t *testing.T) {
	res := &Result{ABI: &ir.KernelABI{Kernel: "k"}, FlattenErr: assert.AnError}
	res.FlattenErr = errors.New("t.wgsl:3:5: flatten: atomicCompareExchangeWeak under a predicate\nmore")
	assert.Equal(t, []Finding{{Class: ClassFlattenRefused, Adapter: "flatten", Implicates: "flatten refused the twin: t.wgsl:3:5: flatten: atomicCompareExchangeWeak under a predicate"}},
		ReplayFindings(res, &testcase.CaseRecord{Flat: true}))
	assert.Empty(t, ReplayFindings(res, &testcase.CaseRecord{Flat: false}))
	// The message after the dash is flatten's refusal (issue 25: it was empty).
	out := JudgeReplay(&testcase.CaseRecord{Verdict: "pass"}, ReplayFindings(res, &testcase.CaseRecord{Flat: true}))
	assert.Equal(t, "repro: fails differently: recorded pass, now flatten-refused — flatten refused the twin: t.wgsl:3:5: flatten: atomicCompareExchangeWeak under a predicate", out.Message)
}

// TestReplayOutOfDomainReproduces: a case recorded out-of-domain whose
// replay is out-of-domain again reproduces (it is not "fixed": nothing
// was compared), naming the loop.
func TestReplayOutOfDomainReproduces(t *testing.T) {
	res := &Result{ABI: &ir.KernelABI{Kernel: "k"}, Verdict: oracle.OutOfDomain, ReferenceErr: []string{"", "l.wgsl:3:3: interp: step limit of 9 exceeded"}}
	rec := &testcase.CaseRecord{Verdict: string(oracle.OutOfDomain), Fill: "edges"}
	out := JudgeReplay(rec, ReplayFindings(res, rec))
	assert.Equal(t, ReplayReproduces, out.Outcome)
	assert.Equal(t, "repro: REPRODUCES: out-of-domain — the made-up inputs (edges) drive the shader past the step limit: l.wgsl:3:3: interp: step limit of 9 exceeded", out.Message)
}

// LoadReplay loads a case file with its record (a function kernel with its
// recorded stages) and refuses a plain module, whatever the overrides.
func TestLoadReplay(t *testing.T) {
	c, err := LoadReplay("../shaders/regress/bool_array_private.wgsl", testcase.LoadOptions{Overrides: map[string]float64{"nope": 1}, MaxInvocations: 1})
	if err != nil {
		t.Fatal(err)
	}
	assert.NotNil(t, c.Record)
	if c.Kind == testcase.KindKernel {
		assert.Equal(t, c.Record.Stages, c.Stages)
	}
	_, err = LoadReplay("../shaders/compute/atomic_counter_read.wgsl", testcase.LoadOptions{})
	assert.Error(t, err)
}
