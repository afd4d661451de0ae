package wgsl

import (
	"math/rand"
	"os"
	"strings"
	"testing"
)

// TestTokenMutantsAcceptedIffTintAccepts is a differential property over
// modules entirely inside the subset (which gpudiff checks completely):
// for token-level mutants (a token deleted, replaced by another, or
// duplicated), gpudiff accepts the mutant exactly when Tint does. Two
// known deviations of Tint from the spec are excluded: it accepts an
// empty statement after `break if` (the grammar's continuing block ends
// with the break-if; naga agrees with gpudiff) and multi-component swizzle
// assignment. Skipped when tint is not installed.
func TestTokenMutantsAcceptedIffTintAccepts(t *testing.T) {
	tint := ptValidators(t)["tint"]
	if tint == nil {
		t.Skip("tint is not installed")
	}
	files := []string{"testdata/parse/subset_kernels.wgsl"}
	for _, f := range ptCorpusFiles(t) {
		if strings.Contains(f, "shaders") && !strings.Contains(f, "tiers") {
			files = append(files, f)
		}
	}
	rng := rand.New(rand.NewSource(20240611))
	for iter := 0; iter < 300; iter++ {
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
		ok, msg := tint(mut)
		if (perr == nil) == ok {
			continue
		}
		if perr != nil && (strings.Contains(perr.Error(), "'break if' must be the last statement") ||
			strings.Contains(perr.Error(), "multi-component swizzle")) {
			continue
		}
		lo, hi := max(int(i.off)-80, 0), min(int(i.end)+80, len(mut))
		t.Errorf("gpudiff error: %v; tint accepts: %v\nnear: %q\ntint: %.400s", perr, ok, mut[lo:hi], msg)
	}
}
