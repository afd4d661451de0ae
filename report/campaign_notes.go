package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/harness"
)

// WritePerformanceNotes writes a campaign's performance notes, when it has
// any: per adapter, how many programs it did not finish compiling within
// the compile limit (--compile-timeout; campaign.Summary.SlowCompiles) and
// which, e.g. "performance note: wgpu-vulkan:llvmpipe did not finish
// compiling 2 programs within --compile-timeout (programs 12, 40): slow
// compiles, not findings". On a GL adapter, where the compile ends at the
// first dispatch, the note says the compile and that dispatch together
// outlasted both limits and a second run agreed. Nothing for a campaign
// without notes.
func WritePerformanceNotes(w io.Writer, s *campaign.Summary) {
	for _, a := range campaign.SortedKeys(s.SlowCompiles) {
		idx := s.SlowCompiles[a]
		words := make([]string, len(idx))
		for i, n := range idx {
			words[i] = fmt.Sprint(n)
		}
		noun := "programs"
		if len(idx) == 1 {
			noun = "program"
		}
		if _, backend, _, ok := harness.NameParts(a); ok && harness.CompilesAtFirstDispatch(backend) {
			// GL compiles at the first dispatch (campaign's slowFirstDispatch).
			fmt.Fprintf(w, "performance note: %s did not finish compiling and first running %d %s within --compile-timeout + --timeout (%s %s; GL compiles at the first dispatch, and a second run agreed): slow compiles, not findings\n",
				a, len(idx), noun, noun, strings.Join(words, ", "))
			continue
		}
		fmt.Fprintf(w, "performance note: %s did not finish compiling %d %s within --compile-timeout (%s %s): slow compiles, not findings\n",
			a, len(idx), noun, noun, strings.Join(words, ", "))
	}
}
