package report

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/jedib0t/go-pretty/v6/table"
	"github.com/jedib0t/go-pretty/v6/text"
	"github.com/jstemmer/go-junit-report/v2/junit"

	"github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// Digest hashes a campaign's program hashes in order (16 hex digits):
// equal digests mean the same programs were generated.
func Digest(hashes []string) string {
	return ir.Hash(strings.Join(hashes, "\n"))[:16]
}

// CampaignRun is what a campaign's reports say beyond its campaign.Spec
// (the one description of the campaign, which the writers take beside
// it): the gpudiff writing them and the drivers its adapters ran on.
type CampaignRun struct {
	// Tool is "gpudiff <version>" of the gpudiff writing the reports (a
	// resumed campaign's Spec.Tool is the gpudiff that began it; merge
	// gives the first shard's).
	Tool string
	// Drivers names each adapter's driver and version as the campaign
	// ran (harness.DriverRecords; none with --no-gpu), where a resumed
	// Spec.Drivers is the journal's.
	Drivers []harness.DriverRecord
}

// WriteCampaignSummary writes run's summary (README "gpudiff run"): a
// table of the counts (programs, invocations, runs per adapter, verdicts,
// new/known/unconfirmed bugs, programs/s, elapsed time, program digest),
// the first and last program hashes, the drivers, and one entry per bug
// (WriteBugs), with the bug-class table (WriteClassTable) between them.
func WriteCampaignSummary(w io.Writer, c campaign.Spec, run CampaignRun, s *campaign.Summary) {
	t := table.NewWriter()
	t.SetOutputMirror(w)
	t.SetStyle(table.StyleLight)
	title := fmt.Sprintf("gpudiff run --seed %d: %d programs", c.Seed, s.Programs)
	if s.Interrupted {
		title = fmt.Sprintf("INTERRUPTED: gpudiff run --seed %d, %d programs", c.Seed, s.Programs)
	}
	t.SetTitle(title)
	rows := campaignRows(s)
	names := 0
	for _, r := range rows {
		t.AppendRow(table.Row{r.Name, r.Value})
		names = max(names, text.RuneWidthWithoutEscSequences(r.Name))
	}
	// The table is as wide as its title, so the title never wraps
	// mid-word ("…839 prog" / "rams"): "│ name │ value │" is the two
	// columns plus 5 cells of border and padding, the title's line 4.
	t.SetColumnConfigs([]table.ColumnConfig{{Number: 2, WidthMin: text.RuneWidthWithoutEscSequences(title) - names - 3}})
	t.Render()
	if h := hashesLine(s); h != "" {
		fmt.Fprintln(w, h)
	}
	if d := driversLine(run.Drivers); d != "" {
		fmt.Fprintln(w, d)
	}
	WriteClassTable(w, c, s)
	WritePerformanceNotes(w, s)
	WriteBugs(w, c.Corpus, campaign.Bugs(s.Failures))
}

// ClassLegend says how a campaign's class table counts (findings/CLASSES.md
// is the table of classes).
const ClassLegend = "a program is in a class when its kernel or entry point, or a function it calls, has the class's construct (findings/CLASSES.md); " +
	"a bug (one signature) falls in the classes of its shrunk program, the one its signature was taken from; " +
	"new and known count bugs, with the programs that met the new ones in parentheses"

// WriteClassTable writes the campaign's bug-class table
// (campaign.ClassCounts over c's profile): per class, the programs that
// exercised it, the new, known and (when any) unconfirmed bugs that fell
// in it, and for a class without programs why there are none; then the
// legend (ClassLegend) and, when some records carry no classes (a
// journal of an older gpudiff resumed or merged), how many.
func WriteClassTable(w io.Writer, c campaign.Spec, s *campaign.Summary) {
	counts := campaign.ClassCounts(s, c.Profile)
	t := table.NewWriter()
	t.SetOutputMirror(w)
	t.SetStyle(table.StyleLight)
	t.SetTitle(fmt.Sprintf("bug classes: %d programs of profile %s", s.Programs, c.Profile))
	flaky := s.Flaky > 0
	header := table.Row{"class", "programs", "new bugs", "known bugs"}
	if flaky {
		header = append(header, "unconfirmed")
	}
	t.AppendHeader(append(header, "no programs because"))
	for _, cc := range counts {
		row := table.Row{cc.Class, cc.Programs, newBugsText(cc), cc.KnownBugs}
		if flaky {
			row = append(row, cc.FlakyBugs)
		}
		t.AppendRow(append(row, cc.Why))
	}
	t.SetColumnConfigs([]table.ColumnConfig{{Number: len(header) + 1, WidthMax: 56, WidthMaxEnforcer: text.WrapSoft}})
	t.Render()
	fmt.Fprintln(w, ClassLegend)
	if s.Unclassified > 0 {
		fmt.Fprintf(w, "%d of the %d programs carry no classes (journaled by a gpudiff from before bug classes) and are counted in no class\n", s.Unclassified, s.Programs)
	}
}

// newBugsText is a class's new bugs and, when there are any, the
// programs that met them: "2 (5 programs)".
func newBugsText(cc campaign.ClassCount) string {
	if cc.NewBugs == 0 {
		return "0"
	}
	return fmt.Sprintf("%d (%d %s)", cc.NewBugs, cc.NewPrograms, map[bool]string{true: "program", false: "programs"}[cc.NewPrograms == 1])
}

// campaignRow is one row of a campaign's summary table.
type campaignRow struct {
	Name  string
	Value any
}

// campaignRows are the rows of a campaign's summary table, the text
// summary's and the HTML page's.
func campaignRows(s *campaign.Summary) []campaignRow {
	rows := []campaignRow{{"programs", s.Programs}, {"invocations", s.Invocations}}
	for _, a := range campaign.SortedKeys(s.RunsPer) {
		rows = append(rows, campaignRow{"runs on " + a, s.RunsPer[a]})
	}
	for _, v := range campaign.SortedKeys(s.Verdicts) {
		rows = append(rows, campaignRow{"verdict " + v, s.Verdicts[v]})
	}
	bugs := campaign.Bugs(s.Failures)
	bugRow := func(state string) string {
		n, programs := campaign.BugCount(bugs, state)
		return fmt.Sprintf("%d in %d %s", n, programs, map[bool]string{true: "program", false: "programs"}[programs == 1])
	}
	rows = append(rows, campaignRow{"new bugs", bugRow("new")}, campaignRow{"known bugs", bugRow("known")})
	if s.Flaky > 0 {
		rows = append(rows, campaignRow{"unconfirmed (flaky) bugs", bugRow("unconfirmed")})
	}
	return append(rows, campaignRow{"programs/s", fmt.Sprintf("%.2f", s.ProgramsPerSecond())},
		campaignRow{"elapsed", elapsedText(s)}, campaignRow{"program digest", Digest(s.Hashes)})
}

// elapsedText is the elapsed row: the campaign's wall time and, when it
// shrank failures, how much of that went to shrinking and how many
// shrinks a --duration deadline cut short.
func elapsedText(s *campaign.Summary) string {
	text := s.Elapsed.Round(time.Millisecond).String()
	if s.Shrinking <= 0 {
		return text
	}
	text += fmt.Sprintf(" (shrinking failures: %s", s.Shrinking.Round(time.Millisecond))
	stopped := 0
	for _, f := range s.Failures {
		if f.ShrinkStopped {
			stopped++
		}
	}
	if stopped > 0 {
		text += fmt.Sprintf("; %d cut short by --duration, saved as far as they had shrunk", stopped)
	}
	return text + ")"
}

// hashesLine names the first and last program hashes ("" without programs).
func hashesLine(s *campaign.Summary) string {
	if len(s.Hashes) == 0 {
		return ""
	}
	first, last := s.Hashes[0], s.Hashes[len(s.Hashes)-1]
	return fmt.Sprintf("program hashes: first %s … last %s (digest %s over %d programs)", first[:12], last[:12], Digest(s.Hashes), len(s.Hashes))
}

// WriteBugs writes one entry per bug (campaign.Bugs): its state, signature
// and explanation, what knows a known bug (campaign.Bug.KnownText: its
// finding, or the family of one), its bug classes, the programs that met it (index and derived seed; the
// first 8 when there are more than 9), and its case file under corpus.
func WriteBugs(w io.Writer, corpus string, bugs []campaign.Bug) {
	for _, b := range bugs {
		state := map[string]string{"new": "NEW", "known": "known", "unconfirmed": "flaky"}[b.State]
		fmt.Fprintf(w, "%-5s %s: %s\n", state, b.Signature, b.Implicates)
		if k := b.KnownText(); b.State == "known" && k != "" {
			fmt.Fprintf(w, "      known: %s\n", k)
		}
		if len(b.BugClasses) > 0 {
			fmt.Fprintf(w, "      classes: %s\n", strings.Join(b.BugClasses, ", "))
		}
		fmt.Fprintf(w, "      %d %s:", len(b.Programs), map[bool]string{true: "program", false: "programs"}[len(b.Programs) == 1])
		for k, i := range b.Programs {
			if k == 8 && len(b.Programs) > 9 {
				fmt.Fprintf(w, " … (%d more in --report)", len(b.Programs)-k)
				break
			}
			fmt.Fprintf(w, " #%d (seed %#x)", i, b.Seeds[k])
		}
		fmt.Fprintln(w)
		if b.Case != "" {
			fmt.Fprintf(w, "      case: %s (#%d, ", filepath.Join(corpus, b.Case), b.CaseIndex)
			if b.ShrunkStmts < b.Stmts {
				fmt.Fprintf(w, "shrunk %d → %d statements)\n", b.Stmts, b.ShrunkStmts)
			} else {
				fmt.Fprintf(w, "%d statements, not shrunk)\n", b.Stmts)
			}
		}
		if b.CaseError != "" {
			fmt.Fprintf(w, "      case NOT saved: %s\n", b.CaseError)
		}
	}
}

// driversLine is "drivers: ADAPTER IMPLEMENTATION-VERSION on DRIVER
// VERSION, ..." (harness.DriverRecord.Stack: "wgpu-vulkan:llvmpipe wgpu
// 0.19.4 (naga 0.19.2) on llvmpipe 22.3.6"), or "" with no driver recorded.
func driversLine(ds []harness.DriverRecord) string {
	var parts []string
	for _, d := range ds {
		parts = append(parts, strings.TrimSpace(d.Adapter+" "+d.Stack()))
	}
	if len(parts) == 0 {
		return ""
	}
	return "drivers: " + strings.Join(parts, ", ")
}

// CampaignReport is run's --report document (README "gpudiff run"): the
// campaign, its counts, every failed program and every bug.
type CampaignReport struct {
	Tool        string                   `json:"tool"`
	Seed        uint64                   `json:"seed"`
	Count       int                      `json:"count"`
	Shard       string                   `json:"shard"`
	Size        int                      `json:"size"`
	Profile     string                   `json:"profile"`
	Mode        string                   `json:"mode"`
	Adapters    []string                 `json:"adapters"`
	Drivers     []harness.DriverRecord   `json:"drivers"` // one per adapter, by name; empty with --no-gpu
	Programs    int                      `json:"programs"`
	Invocations int                      `json:"invocations"`
	RunsPer     map[string]int           `json:"runs_per_adapter"`
	Verdicts    map[string]int           `json:"verdicts"`
	New         int                      `json:"new_failures"`
	Flaky       int                      `json:"unconfirmed_failures"`
	Known       int                      `json:"known_failures"`
	PerSecond   float64                  `json:"programs_per_second"`
	ElapsedMS   int64                    `json:"elapsed_ms"`
	ShrinkingMS int64                    `json:"shrinking_ms,omitempty"` // this run's; absent in a merge (journals do not record it)
	Digest      string                   `json:"program_digest"`
	Duration    string                   `json:"duration,omitempty"` // the time budget ("" for a Count campaign)
	Interrupted bool                     `json:"interrupted"`        // a signal stopped the campaign early
	Failures    []campaign.ProgramRecord `json:"failures"`           // one per failed program
	// NewBugs, KnownBugs and FlakyBugs count signatures (campaign.Bugs), where
	// new_failures and the others count programs.
	NewBugs   int            `json:"new_bugs"`
	KnownBugs int            `json:"known_bugs"`
	FlakyBugs int            `json:"unconfirmed_bugs"`
	Bugs      []campaign.Bug `json:"bugs"` // one per signature, with its programs
	// BugClasses is the class table (campaign.ClassCounts, every class,
	// zeros included; ClassLegend says how it counts), Unclassified the
	// programs whose records carry no classes (an older gpudiff's journal).
	BugClasses   []campaign.ClassCount `json:"bug_classes"`
	Unclassified int                   `json:"unclassified_programs,omitempty"`
	// SlowCompiles are the performance notes: per adapter, the programs
	// whose module it did not finish compiling within --compile-timeout.
	SlowCompiles map[string][]int `json:"slow_compiles,omitempty"`
}

// NewCampaignReport is the report of campaign c, run as run, with summary
// s; its lists are empty, never null.
func NewCampaignReport(c campaign.Spec, run CampaignRun, s *campaign.Summary) CampaignReport {
	shard := c.Shard
	if shard == "" {
		shard = "0/1"
	}
	r := CampaignReport{Tool: run.Tool, Seed: c.Seed, Count: c.Count, Shard: shard, Size: c.Size,
		Profile: c.Profile, Mode: c.Mode, Adapters: c.Adapters, Programs: s.Programs, Invocations: s.Invocations,
		RunsPer: s.RunsPer, Verdicts: s.Verdicts, New: s.New, Known: s.Known, Flaky: s.Flaky, PerSecond: s.ProgramsPerSecond(),
		ElapsedMS: s.Elapsed.Milliseconds(), ShrinkingMS: s.Shrinking.Milliseconds(), Digest: Digest(s.Hashes), Failures: s.Failures, Interrupted: s.Interrupted}
	if c.Duration > 0 {
		r.Duration = c.Duration.String()
	}
	if r.Adapters == nil {
		r.Adapters = []string{}
	}
	r.Drivers = run.Drivers
	if r.Drivers == nil {
		r.Drivers = []harness.DriverRecord{}
	}
	if r.Failures == nil {
		r.Failures = []campaign.ProgramRecord{}
	}
	r.Bugs = campaign.Bugs(s.Failures)
	if r.Bugs == nil {
		r.Bugs = []campaign.Bug{}
	}
	r.BugClasses, r.Unclassified = campaign.ClassCounts(s, c.Profile), s.Unclassified
	r.SlowCompiles = s.SlowCompiles
	r.NewBugs, _ = campaign.BugCount(r.Bugs, "new")
	r.KnownBugs, _ = campaign.BugCount(r.Bugs, "known")
	r.FlakyBugs, _ = campaign.BugCount(r.Bugs, "unconfirmed")
	return r
}

// WriteCampaignJSON writes NewCampaignReport(c, run, s) as indented JSON
// and a newline. Errors are w's.
func WriteCampaignJSON(w io.Writer, c campaign.Spec, run CampaignRun, s *campaign.Summary) error {
	data, err := json.MarshalIndent(NewCampaignReport(c, run, s), "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// WriteCampaignJUnit writes the campaign as JUnit XML: one test suite per
// adapter ("gpudiff/interp" first, for flatten's and the interpreter's
// findings) with the campaign's new and known bug counts as properties, one
// test case per program ("program-<index>-<hash>"), except that a failed
// program's test case is its bug's — named by the signature, failed (new)
// or skipped (known), listing the bug's programs and case file — once per
// suite; an interrupted campaign adds an error test case
// "campaign-interrupted" to every suite. Errors are w's.
func WriteCampaignJUnit(w io.Writer, c campaign.Spec, run CampaignRun, s *campaign.Summary) error {
	adapters := c.Adapters
	failed := map[int]campaign.ProgramRecord{}
	for _, f := range s.Failures {
		failed[f.Index] = f
	}
	bugs := map[string]campaign.Bug{}
	all := campaign.Bugs(s.Failures)
	for _, b := range all {
		bugs[b.Signature] = b
	}
	var suites junit.Testsuites
	for _, a := range append([]string{"interp"}, adapters...) {
		suite := junit.Testsuite{Name: "gpudiff/" + a, Time: "0"}
		for _, d := range run.Drivers {
			if d.Adapter == a {
				addDriverProperties(&suite, d)
			}
		}
		for _, state := range []string{"new", "known"} { // the whole campaign's, in every suite
			n, programs := campaign.BugCount(all, state)
			suite.AddProperty(state+"_bugs", campaign.CountPhrase(n, programs, state))
		}
		inSuite := map[string]bool{} // bugs that have their test case in this suite
		for k, i := range s.Indices {
			tc := junit.Testcase{Name: fmt.Sprintf("program-%d-%s", i, s.Hashes[k][:12]), Classname: "gpudiff." + a}
			if f, ok := failed[i]; ok {
				for j, fa := range f.Adapters {
					if fa != a && !(a == "interp" && (fa == "flatten" || fa == "interp")) {
						continue
					}
					// One test case per bug, named by its signature (stable
					// across runs), listing every program that met it.
					if inSuite[f.Signature] {
						tc.Name = ""
						break
					}
					inSuite[f.Signature] = true
					bug := bugs[f.Signature]
					tc.Name = f.Signature
					data := junitBugData(c.Corpus, bug)
					if f.Known {
						tc.Skipped = &junit.Result{Message: "known bug " + f.Signature, Data: data}
					} else {
						tc.Failure = &junit.Result{Message: fmt.Sprintf("%s: %s (%d %s)", f.Classes[j], f.Implicates,
							len(bug.Programs), map[bool]string{true: "program", false: "programs"}[len(bug.Programs) == 1]),
							Type: string(f.Classes[j]), Data: data}
					}
					break
				}
			}
			if tc.Name != "" {
				suite.AddTestcase(tc)
			}
		}
		if s.Interrupted { // a cancelled campaign must not read as green
			suite.AddTestcase(junit.Testcase{Name: "campaign-interrupted", Classname: "gpudiff." + a,
				Error: &junit.Result{Message: fmt.Sprintf("the campaign was interrupted after %d programs", s.Programs), Type: "interrupted"}})
		}
		suites.AddSuite(suite)
	}
	return suites.WriteXML(w)
}

// junitBugData is the body of a bug's JUnit result: its signature, its
// programs with their derived seeds, and its case file.
func junitBugData(corpus string, b campaign.Bug) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "signature %s\n", b.Signature)
	for k, i := range b.Programs {
		fmt.Fprintf(&sb, "program #%d seed %#x\n", i, b.Seeds[k])
	}
	if b.Case != "" {
		fmt.Fprintf(&sb, "case %s (#%d)\n", filepath.Join(corpus, b.Case), b.CaseIndex)
	}
	return sb.String()
}
