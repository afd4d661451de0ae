package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/gpudiff/gpudiff/campaign"
)

// WritePerformanceNotes writes a campaign's performance notes, when it has
// any: per adapter, how many programs it did not finish compiling within
// the compile limit (--compile-timeout; campaign.Summary.SlowCompiles) and
// which, e.g. "performance note: wgpu-vulkan:llvmpipe did not finish
// compiling 2 programs within --compile-timeout (programs 12, 40): slow
// compiles, not findings". Nothing for a campaign without notes.
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
		fmt.Fprintf(w, "performance note: %s did not finish compiling %d %s within --compile-timeout (%s %s): slow compiles, not findings\n",
			a, len(idx), noun, noun, strings.Join(words, ", "))
	}
}
