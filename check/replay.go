package check

import (
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/oracle"
)

// Outcomes of replaying a case file (JudgeReplay; README "gpudiff repro").
const (
	ReplayFixed      = "fixed"      // every run agrees: the recorded failure no longer occurs
	ReplayReproduces = "reproduces" // a finding of a recorded class family occurs again
	ReplayDifferent  = "different"  // something fails, but not as recorded
)

// ReplayOutcome is the judgement of a case file's replay, the "repro"
// member of `gpudiff repro --json`'s document.
type ReplayOutcome struct {
	// Outcome is ReplayFixed, ReplayReproduces or ReplayDifferent.
	Outcome string `json:"outcome"`
	// Recorded lists the case file's recorded classes (or its verdict
	// when it records no finding); Now the classes found by the replay,
	// in ReplayFindings' order.
	Recorded []string `json:"recorded"`
	Now      []string `json:"now"`
	// Message is the one line that says so, e.g. "repro: REPRODUCES:
	// stack — …".
	Message string `json:"message"`
}

// ReplayFindings are the findings of a replay res of the case recorded
// in rec: Attribute's, preceded by a ClassFlattenRefused finding (adapter
// "flatten", implicating flatten's refusal, its first line) when the
// record asks for the twin and flatten refused it. A replay whose verdict
// is oracle.OutOfDomain (made-up inputs past the step limit: no finding
// of Attribute's) is one finding of class "out-of-domain" (adapter
// "interp"), so that a case recorded so reproduces as itself.
func ReplayFindings(res *Result, rec *testcase.CaseRecord) []Finding {
	now := Attribute(res)
	if res.Verdict == oracle.OutOfDomain {
		why := "the made-up inputs (" + rec.Fill + ") drive the shader past the step limit"
		if inv := res.Unfinished(); len(inv) > 0 {
			why += ": " + firstLineOf(res.ReferenceErr[inv[0]])
		}
		now = append([]Finding{{Class: Class(oracle.OutOfDomain), Adapter: "interp", Implicates: why}}, now...)
	}
	if res.FlattenErr != nil && rec.Flat {
		now = append([]Finding{{Class: ClassFlattenRefused, Adapter: "flatten", Implicates: "flatten refused the twin: " + firstLineOf(res.FlattenErr.Error())}}, now...)
	}
	return now
}

// firstLineOf is s up to its first newline.
func firstLineOf(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// JudgeReplay compares the replay's findings now (ReplayFindings) with
// the case record rec: no finding is ReplayFixed; a finding whose class
// family (classFamily) the record has — or, for a record without
// findings, whose class is its non-pass verdict — is ReplayReproduces;
// any other is ReplayDifferent. The message names the first finding.
func JudgeReplay(rec *testcase.CaseRecord, now []Finding) ReplayOutcome {
	recorded := map[string]bool{}
	out := ReplayOutcome{Recorded: []string{}, Now: []string{}}
	for _, fd := range rec.Findings {
		recorded[classFamily(Class(fd.Class))] = true
		out.Recorded = append(out.Recorded, string(fd.Class))
	}
	if len(rec.Findings) == 0 && rec.Verdict != "pass" {
		recorded[rec.Verdict] = true
		out.Recorded = append(out.Recorded, rec.Verdict)
	}
	for _, fd := range now {
		out.Now = append(out.Now, string(fd.Class))
	}
	switch {
	case len(now) == 0:
		out.Outcome = ReplayFixed
		out.Message = fmt.Sprintf("repro: the recorded failure (%s) no longer reproduces: every run agrees", recordedClasses(rec.Findings, rec.Verdict))
	case anyRecorded(now, recorded):
		out.Outcome = ReplayReproduces
		out.Message = fmt.Sprintf("repro: REPRODUCES: %s", dashed(now[0]))
	default:
		out.Outcome = ReplayDifferent
		out.Message = fmt.Sprintf("repro: fails differently: recorded %s, now %s", recordedClasses(rec.Findings, rec.Verdict), dashed(now[0]))
	}
	return out
}

// dashed is a finding's class, then " — " and what it implicates when it
// says (a message never ends with a dash and nothing after it, issue 25).
func dashed(f Finding) string {
	if f.Implicates == "" {
		return string(f.Class)
	}
	return string(f.Class) + " — " + f.Implicates
}

// classFamily maps a finding class onto the disagreement it names,
// independent of how many adapters took part: "vendor" is "stack" (the
// GPU's original disagrees with the reference) seen next to other
// adapters that agree, so a vendor case replayed on its adapter alone,
// where it can only be called "stack", still reproduces.
func classFamily(class Class) string {
	if class == ClassVendor {
		return string(ClassStack)
	}
	return string(class)
}

func anyRecorded(now []Finding, recorded map[string]bool) bool {
	for _, f := range now {
		if recorded[classFamily(f.Class)] {
			return true
		}
	}
	return false
}

// recordedClasses is the record's classes, "a, b", or its verdict when it
// records no finding.
func recordedClasses(fs []testcase.FindingRecord, verdict string) string {
	if len(fs) == 0 {
		return verdict
	}
	s := string(fs[0].Class)
	for _, f := range fs[1:] {
		s += ", " + string(f.Class)
	}
	return s
}

// LoadReplay loads the case file at path to replay it as recorded
// (repro): its own kernel, inputs, mode, flattening and SPIR-V choice, and
// a function kernel's recorded stages; a path that is not a case file is
// refused. o's overrides and limits do not apply: the caller checks the
// limits once its adapters are open, as a run's are.
func LoadReplay(path string, o testcase.LoadOptions) (*testcase.Case, error) {
	o.Overrides, o.CheckKernel, o.MaxInvocations, o.CaseFileOnly, o.Recorded = nil, nil, 0, true, true
	c, err := testcase.Load(path, o)
	if err != nil {
		return nil, err
	}
	if c.Kind == testcase.KindKernel {
		c.Stages = c.Record.Stages
	}
	return c, nil
}
