package report

import (
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/oracle"
)

// The viewer's texture pictures (issue 24 point 7): each run of a compute
// entry point has, beside its picture of buffer leaves (View.Shows
// ShowsBindings), one view per texture picture TexturePictures draws
// (View.Shows the binding's name, or "NAME input"), stepped through with
// the picture keys; a click on a texel describes it (texelDescription).

// ShowsBindings is what an entry point's (or a function kernel's) own
// picture shows: its outputs' leaves.
const ShowsBindings = "bindings"

// textureViews are run k's texture views of an entry point's result, on
// base's axes.
func textureViews(res texRuns, entry string, specs []texturePictureSpec, base View, k int) []View {
	var out []View
	for _, s := range specs {
		v := base
		v.Shows = s.name()
		v.Label = base.Label + " " + s.name()
		v.Picture = func() *image.RGBA { return texturePicture(res, entry, s.tv, s.input, k) }
		v.Cell = func(x, y int) (string, bool) {
			t, ok := TexturePictureTexelAt(s.tv, s.input, x, y)
			if !ok {
				return "", false
			}
			return texelDescription(res, entry, s.tv, s.input, k, t), true
		}
		out = append(out, v)
	}
	return out
}

// channelText describes channel code x of format: its value (what the
// shader reads) and, where that is not the code itself, the code.
func channelText(format string, x uint32) string {
	_, bits, kind, _, _ := testcase.TextureFormat(format)
	v := testcase.ChannelValue(format, x)
	s := fmt.Sprintf("%.6g", v)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		s = fmt.Sprint(v)
	}
	if kind == "unorm" || kind == "snorm" || kind == "float" && bits == 16 {
		s += fmt.Sprintf(" (code %d)", x)
	}
	return s
}

var channelNames = [4]string{"r", "g", "b", "a"}

// texelChannels names the channels of one texel's codes cs ("r 0.4 (code
// 102), g …"); bgra8unorm's are named in memory order b, g, r, a.
func texelChannels(format string, cs []uint32, each func(c int) string) string {
	_, _, _, bgra, _ := testcase.TextureFormat(format)
	parts := make([]string, len(cs))
	for c := range cs {
		name := channelNames[min(c, 3)]
		if bgra && c != 1 && c != 3 {
			name = channelNames[2-c]
		}
		parts[c] = name + " " + each(c)
	}
	return strings.Join(parts, ", ")
}

// texelDescription describes texel t of texture picture (tv, input) in
// run k (k < 0: the reference): its place, and for an input its value
// (the same in every run); for a written storage texture's final
// contents, the reference's value — a channel WGSL leaves open as the
// set of codes it allows, or "any value" — the run's, and the channels
// that differ.
func texelDescription(res texRuns, entry string, tv check.TextureView, input bool, k int, t Texel) string {
	run := oracle.Run{Adapter: "interp", Function: entry, Format: oracle.FormatIR}
	var j *oracle.Judged
	if k >= 0 {
		j = &res.runs[k]
		run = j.Run
	}
	tex := tv.Texture
	ch, _, _, _, _ := testcase.TextureFormat(tex.Format)
	ch = max(ch, 1)
	w, h, _ := texLevelSize(tv, t.Level)
	i := (t.Layer*h+t.Y)*w + t.X
	var b strings.Builder
	fmt.Fprintf(&b, "%s texel (%d, %d) level %d layer %d, %s\n", tv.Var.Name, t.X, t.Y, t.Level, t.Layer, RunLabel(run))
	codesOf := func(cs []uint32) []uint32 {
		if (i+1)*ch > len(cs) {
			return nil
		}
		return cs[i*ch : (i+1)*ch]
	}
	plain := func(cs []uint32) string {
		return texelChannels(tex.Format, cs, func(c int) string { return channelText(tex.Format, cs[c]) })
	}
	if input {
		if cs := codesOf(testcase.TextureCodes(tex, t.Level)); cs != nil {
			fmt.Fprintf(&b, "  input:     %s (%s, the same in every run)\n", plain(cs), tex.Format)
		}
		return b.String()
	}
	if tv.Output >= len(res.reference) {
		return b.String() // the reference did not run (out of domain)
	}
	ref := res.reference[tv.Output]
	rc := codesOf(leafCodes(ref.Value))
	if rc == nil {
		return b.String()
	}
	fmt.Fprintf(&b, "  reference: %s\n", texelChannels(tex.Format, rc, func(c int) string {
		l := i*ch + c
		if l >= len(ref.Indeterminate) || !ref.Indeterminate[l] {
			return channelText(tex.Format, rc[c])
		}
		set := ref.Set(l)
		if len(set.Values) == 0 {
			return "any value"
		}
		alts := make([]string, len(set.Values))
		for a, x := range set.Values {
			alts[a] = channelText(tex.Format, x)
		}
		return "one of " + strings.Join(alts, " or ")
	}))
	if j == nil {
		return b.String()
	}
	switch {
	case j.Failed != "":
		fmt.Fprintf(&b, "  output:    none (%s: %s)\n", j.Failed, firstLine(j.Message))
	case len(j.Outputs) == 1 && tv.Output < len(j.Outputs[0]):
		if gc := codesOf(leafCodes(j.Outputs[0][tv.Output].Value)); gc != nil {
			fmt.Fprintf(&b, "  output:    %s\n", plain(gc))
		}
	default:
		fmt.Fprintf(&b, "  output:    none\n")
	}
	for _, d := range j.Diffs[0] {
		if d.Output == tv.Output && d.Leaf/ch == i {
			fmt.Fprintf(&b, "  differs:   %s: reference %s, got %s\n", d.Path, d.Want, d.Got)
		}
	}
	return b.String()
}
