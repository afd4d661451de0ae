package report

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/gpudiff/gpudiff/campaign"
)

// TestCampaignTitleDoesNotWrap: the interrupted summary's title is longer
// than its short rows; it used to wrap mid-word ("…839 prog" / "rams",
// issue 25). The whole title stands on one line, and so does the
// uninterrupted one.
func TestCampaignTitleDoesNotWrap(t *testing.T) {
	for _, interrupted := range []bool{true, false} {
		s := &campaign.Summary{Seed: 1, Programs: 839, RunsPer: map[string]int{}, Verdicts: map[string]int{"pass": 839},
			Elapsed: 3 * time.Second, Interrupted: interrupted}
		var b strings.Builder
		WriteCampaignSummary(&b, campaign.Spec{Seed: 1}, CampaignRun{}, s)
		want := "gpudiff run --seed 1: 839 programs"
		if interrupted {
			want = "INTERRUPTED: gpudiff run --seed 1, 839 programs"
		}
		lines := strings.Split(b.String(), "\n")
		found := false
		for _, l := range lines {
			found = found || strings.Contains(l, want)
		}
		assert.True(t, found, "title %q on one line in:\n%s", want, b.String())
		// Every line of the box is as wide as the first (up to its end;
		// the bug-class table follows).
		w := len([]rune(lines[0]))
		for _, l := range lines[1:] {
			if strings.HasPrefix(l, "│") || strings.HasPrefix(l, "├") || strings.HasPrefix(l, "└") {
				assert.Equal(t, w, len([]rune(l)), "line %q", l)
			}
			if strings.HasPrefix(l, "└") {
				break
			}
		}
	}
}
