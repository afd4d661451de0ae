package testcase

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/ir"
)

// A fragment entry point's case file (README "Case files"): the module as
// written, and a record whose "size" [W, H] marks the kind. Its
// "kernel" is the @fragment entry point, "invocations" W × H (one per
// pixel, row by row from the top-left), "inputs" the texture and sampler
// bindings' entries in exec --inputs' form (TextureJSON, SamplerJSON; {}
// for a module without them), "reference" and each run's "outputs" one
// result per pixel, each run's "stage" "fragment", and each run's
// "leaves" how many pixels disagree in each output leaf (channel). repro
// draws it again on its adapters and judges the replay against the
// recorded findings, as for the other kinds.

// IsFragment reports whether the record is a fragment entry point's case
// (drawn alone over the full-screen triangle; a draw's record, IsDraw,
// has a size too).
func (r *CaseRecord) IsFragment() bool { return len(r.Size) > 0 && r.Vertex == "" }

// IsDraw reports whether the record is a draw's case: a vertex and a
// fragment entry point (check/testcase/drawcase.go).
func (r *CaseRecord) IsDraw() bool { return r.Vertex != "" }

// FragmentInputsJSON is a fragment case's inputs: its textures and
// samplers (TexturesJSON) as one object, the inputs file's form; {} when
// the module has none.
func FragmentInputsJSON(c *FragmentCase) json.RawMessage {
	return json.RawMessage("{" + strings.Join(TexturesJSON(c.Module, c.Textures, c.Samplers), ", ") + "}")
}

// parseFragmentRecord checks a fragment entry point's record against its
// module m (a file of n bytes) and builds the case: the entry point
// (wgsl.FragmentEntry's positioned errors), a size of two counts, each
// ≥ 1, whose product is the record's invocations and at most
// MaxFragmentPixels (a record holds a result per pixel, so at most n),
// and the textures and samplers (an inputs entry that is not one of
// them is refused: a fragment entry point takes no buffers).
func parseFragmentRecord(file string, m *ir.Module, rec *CaseRecord, n int) (*FragmentCase, error) {
	f, err := wgsl.FragmentEntry(m, rec.Kernel)
	if err != nil {
		return nil, err
	}
	if len(rec.Size) != 2 || rec.Size[0] == 0 || rec.Size[1] == 0 {
		return nil, fmt.Errorf("%s: case record: size %v: want [width, height] in pixels, each at least 1", file, rec.Size)
	}
	pixels := uint64(rec.Size[0]) * uint64(rec.Size[1])
	if pixels > MaxFragmentPixels || pixels > uint64(n) || uint64(rec.Invocations) != pixels {
		return nil, fmt.Errorf("%s: case record: size %dx%d with %d invocations (want one invocation per pixel, at most %d pixels, and no more than the record can hold)",
			file, rec.Size[0], rec.Size[1], rec.Invocations, MaxFragmentPixels)
	}
	bufs, texs, smps, err := parseEntryInputs(file+": inputs", rec.Inputs, m)
	if err != nil {
		return nil, err
	}
	if len(bufs) > 0 {
		names := make([]string, 0, len(bufs))
		for k := range bufs {
			names = append(names, k)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("%s: inputs: %s: a fragment entry point takes textures and samplers only", file, strings.Join(names, ", "))
	}
	return &FragmentCase{Module: m, Entry: f.Name, Size: [2]uint32{rec.Size[0], rec.Size[1]}, Textures: texs, Samplers: smps}, nil
}

// LeafSummary renders a run record's Leaves as "ret.lin[3] 205, ret.lin[1]
// 12" (most pixels first, then by path); "" when it has none.
func LeafSummary(leaves map[string]int) string {
	paths := make([]string, 0, len(leaves))
	for p := range leaves {
		paths = append(paths, p)
	}
	sort.Slice(paths, func(i, j int) bool {
		if leaves[paths[i]] != leaves[paths[j]] {
			return leaves[paths[i]] > leaves[paths[j]]
		}
		return paths[i] < paths[j]
	})
	parts := make([]string, len(paths))
	for i, p := range paths {
		parts[i] = fmt.Sprintf("%s %d", p, leaves[p])
	}
	return strings.Join(parts, ", ")
}
