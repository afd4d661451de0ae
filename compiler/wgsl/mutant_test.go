package wgsl

import (
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTokenMutantsAcceptedIffTintAccepts is a differential property over
// modules entirely inside the subset (which gpudiff checks completely):
// for token-level mutants (a token deleted, replaced by another, or
// duplicated), gpudiff accepts the mutant exactly when Tint does. Two
// known deviations of Tint from the spec are excluded: it accepts an
// empty statement after `break if` (the grammar's continuing block ends
// with the break-if; naga agrees with gpudiff) and multi-component swizzle
// assignment. All mutants go to Tint in one request.
func TestTokenMutantsAcceptedIffTintAccepts(t *testing.T) {
	tint := ptTintCheck(t)
	files := []string{"testdata/parse/subset_kernels.wgsl"}
	for _, f := range ptCorpusFiles(t) {
		if strings.Contains(f, "shaders") && !strings.Contains(f, "tiers") && wholeInSubset(t, f) {
			files = append(files, f)
		}
	}
	rng := rand.New(rand.NewSource(20240611))
	type mutant struct {
		src      string
		lo, hi   int // the mutated region, with context
		gpudiffE error
	}
	var muts []mutant
	for iter := 0; iter < 400; iter++ {
		b, err := os.ReadFile(files[rng.Intn(len(files))])
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		l := newLexer(b, func(int32, string) {})
		var toks []lexTok
		for tk := l.next(); tk.kind != lexEOF; tk = l.next() {
			toks = append(toks, tk)
		}
		i, j := toks[rng.Intn(len(toks))], toks[rng.Intn(len(toks))]
		var mut string
		switch rng.Intn(3) {
		case 0:
			mut = src[:i.off] + src[i.end:]
		case 1:
			mut = src[:i.off] + src[j.off:j.end] + src[i.end:]
		default:
			mut = src[:i.off] + src[j.off:j.end] + " " + src[i.off:]
		}
		_, perr := Parse("mutant.wgsl", []byte(mut))
		muts = append(muts, mutant{mut, max(int(i.off)-80, 0), min(int(i.end)+80, len(mut)), perr})
	}
	srcs := make([]string, len(muts))
	for i, m := range muts {
		srcs[i] = m.src
	}
	verdicts := tint.check(t, srcs...)
	rejected := 0
	for i, m := range muts {
		perr, terr := m.gpudiffE, verdicts[i]
		if terr != nil {
			rejected++
		}
		if (perr == nil) == (terr == nil) {
			continue
		}
		if perr != nil && (strings.Contains(perr.Error(), "'break if' must be the last statement") ||
			strings.Contains(perr.Error(), "multi-component swizzle")) {
			continue
		}
		t.Errorf("gpudiff error: %v; tint error: %.400v\nnear: %q", perr, terr, m.src[m.lo:m.hi])
	}
	// Both kinds occur, or the property says little.
	assert.Greater(t, rejected, 0, "mutants Tint rejects")
	assert.Greater(t, len(muts)-rejected, 5, "mutants Tint accepts")
}

// wholeInSubset reports whether every function of the module in file is
// inside gpudiff's subset: a function outside it (a @vertex entry point,
// say) is kept verbatim and checked only in part (its text is not
// gpudiff's to run), so mutants of it say nothing about the checker.
func wholeInSubset(t *testing.T, file string) bool {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Parse(file, b)
	if err != nil {
		return false
	}
	for _, o := range m.Opaque {
		if o.Kind == "fn" {
			return false
		}
	}
	return true
}
