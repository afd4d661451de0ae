package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/campaign"
)

// TestCampaignClassTable: the text, JSON and HTML reports of a summary
// written by hand give its class table as derived by hand. Three
// programs: #0 and #1 meet one new bug (their shrunk programs have a
// loop), #2 a known one, by the family pattern of the Mesa finding
// (shrunk program: loop and barrier). So loop has 3 programs, 1 new bug
// (2 programs) and 1 known; barrier 1 program, 0 new, 1 known; switch
// none (in profile compute, not drawn); f16 none (not in the profile).
func TestCampaignClassTable(t *testing.T) {
	const family = "vendor/dawn-gl*:*/*workgroupBarrier*"
	const mesa = "findings/compute/mesa_glsl_shared_load_after_barrier.wgsl"
	fail := func(i int, sig string, shrunk []string) campaign.ProgramRecord {
		return campaign.ProgramRecord{Index: i, Seed: uint64(100 + i), Hash: strings.Repeat("a", 64), Verdict: "mismatch",
			Signature: sig, BugClasses: []string{"loop", "barrier"}, ShrunkBugClasses: shrunk, Stmts: 9, ShrunkStmts: 3}
	}
	known := fail(2, "vendor/dawn-gl:llvmpipe/loop+workgroupBarrier", []string{"loop", "barrier"})
	known.Known, known.KnownBy, known.KnownAs = true, family, mesa
	s := &campaign.Summary{Seed: 5, Programs: 3, RunsPer: map[string]int{}, Verdicts: map[string]int{"mismatch": 3},
		New: 2, Known: 1, ClassPrograms: map[string]int{"loop": 3, "barrier": 1},
		Failures: []campaign.ProgramRecord{fail(0, "vendor/x:y/loop", []string{"loop"}), fail(1, "vendor/x:y/loop", []string{"loop"}), known},
		Hashes:   []string{strings.Repeat("a", 64), strings.Repeat("b", 64), strings.Repeat("c", 64)}, Indices: []int{0, 1, 2}}
	spec := campaign.Spec{Seed: 5, Count: 3, Profile: "compute"}

	var text bytes.Buffer
	WriteCampaignSummary(&text, spec, CampaignRun{}, s)
	out := text.String()
	assert.Regexp(t, `│ loop +│ +3 │ 1 \(2 programs\) +│ +1 │ +│`, out)
	assert.Regexp(t, `│ barrier +│ +1 │ 0 +│ +1 │ +│`, out)
	assert.Regexp(t, `│ switch +│ +0 │ 0 +│ +0 │ in profile compute, but none of these programs drew it +│`, out)
	assert.Regexp(t, `│ f16 +│ +0 │ 0 +│ +0 │ not in profile compute \(profile f16\); needs`, out)
	assert.Contains(t, out, "      known: family of "+mesa+" (pattern "+family+")\n")
	assert.Contains(t, out, "      classes: loop, barrier\n")
	assert.Contains(t, out, ClassLegend)

	var js bytes.Buffer
	require.NoError(t, WriteCampaignJSON(&js, spec, CampaignRun{}, s))
	var r struct {
		Classes []campaign.ClassCount `json:"bug_classes"`
		Bugs    []campaign.Bug        `json:"bugs"`
	}
	require.NoError(t, json.Unmarshal(js.Bytes(), &r))
	require.Len(t, r.Classes, len(campaign.BugClassTable()))
	by := map[string]campaign.ClassCount{}
	for _, c := range r.Classes {
		by[c.Class] = c
	}
	assert.Equal(t, campaign.ClassCount{Class: "loop", Doc: by["loop"].Doc, Programs: 3, NewBugs: 1, KnownBugs: 1, NewPrograms: 2}, by["loop"])
	assert.Equal(t, 1, by["barrier"].KnownBugs)
	assert.Zero(t, by["barrier"].NewBugs)
	assert.Contains(t, by["f16"].Why, "not in profile compute")
	require.Len(t, r.Bugs, 2)
	assert.Equal(t, []string{"loop"}, r.Bugs[0].BugClasses)
	assert.Equal(t, family, r.Bugs[1].KnownBy)
	assert.Equal(t, mesa, r.Bugs[1].KnownAs)

	var html bytes.Buffer
	require.NoError(t, WriteCampaignHTML(&html, spec, CampaignRun{}, s))
	page := html.String()
	assert.Contains(t, page, `<h2>Bug classes</h2>`)
	assert.Regexp(t, `<code title="[^"]*">loop</code></td><td class="num">3</td><td class="num">1 \(2 programs\)</td><td class="num">1</td>`, page)
	assert.Contains(t, page, "known: family of "+mesa+" (pattern "+family+")")
	assert.Contains(t, page, "bug classes: loop, barrier")
}
