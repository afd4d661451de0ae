package report

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/compiler/wgsl"
	"github.com/gpudiff/gpudiff/harness"
	"github.com/gpudiff/gpudiff/ir"
)

// halfDraw is one triangle over the lower-left half of a 4×4 target
// (clip (−1, −1), (1, −1), (−1, 1): framebuffer (0, 4), (4, 4), (0, 0),
// the diagonal y = x its third edge), its fragment writing 7.
func halfDraw(t *testing.T) *testcase.Case {
	src := `@vertex fn vs(@location(0) p: vec2<f32>) -> @builtin(position) vec4<f32> { return vec4<f32>(p, 0.5, 1.0); }
@fragment fn fs() -> @location(0) u32 { return 7u; }
`
	m, err := wgsl.Parse("half.wgsl", []byte(src))
	require.NoError(t, err)
	var data []byte
	var ps []ir.Value
	for _, p := range [][2]float32{{-1, -1}, {1, -1}, {-1, 1}} {
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(p[0]))
		data = binary.LittleEndian.AppendUint32(data, math.Float32bits(p[1]))
		ps = append(ps, ir.CompositeVal(ir.Vec(2, ir.F32), ir.F32Val(p[0]), ir.F32Val(p[1])))
	}
	return &testcase.Case{Kind: testcase.KindDraw, Module: m, Func: m.Func("fs"), VertexModule: m, Vertex: m.Func("vs"),
		Draw:         &harness.Draw{Count: 3, VertexBuffers: []harness.VertexBuffer{{Data: data, Stride: 8, Attributes: []harness.VertexAttribute{{Format: "float32x2", ShaderLocation: 0}}}}},
		VertexInputs: []testcase.VertexInput{{Name: "p", Path: []int{0}, Location: 0, Format: "float32x2", StepMode: "vertex", Values: ps}},
		Size:         [2]uint32{4, 4}}
}

// exec's JSON and table of a draw: the vertex entry point and the target
// named, one invocation per pixel (its pixel as the argument), the pixels
// below the diagonal 7, above it the clear value 0, on it either.
func TestDrawJSONAndTable(t *testing.T) {
	c := halfDraw(t)
	res, err := check.Execute(context.Background(), c, check.Options{})
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, WriteCaseJSON(&b, res, nil))
	var doc struct {
		Kernel, Vertex string
		Size           []int
		Invocations    int
		Inputs         map[string][]json.RawMessage
		Reference      []json.RawMessage
	}
	require.NoError(t, json.Unmarshal(b.Bytes(), &doc), b.String())
	assert.Equal(t, "fs", doc.Kernel)
	assert.Equal(t, "vs", doc.Vertex)
	assert.Equal(t, []int{4, 4}, doc.Size)
	assert.Equal(t, 16, doc.Invocations)
	assert.JSONEq(t, `[3, 1]`, string(doc.Inputs["pixel"][1*4+3]), "invocation 7 is pixel (3, 1)")
	assert.JSONEq(t, `7`, string(doc.Reference[3*4+0]), "(0, 3) is below the diagonal")
	assert.JSONEq(t, `0`, string(doc.Reference[0*4+3]), "(3, 0) is above it")
	assert.JSONEq(t, `{"oneOf": [0, 7]}`, string(doc.Reference[2*4+2]), "(2, 2) lies on it: the clear value or 7")

	b.Reset()
	WriteCaseTable(&b, res, ExecOptions{AllRows: true})
	assert.Contains(t, b.String(), "draw of vertex entry point vs and fragment entry point fs over a 4x4 target: invocation i is pixel (i % 4, i / 4)")
	assert.Contains(t, b.String(), "│  7 │ (3u, 1u)          │ 0u            │")
}

// The viewer's model of a draw: one view per run, the reference first,
// each cell a pixel.
func TestDrawViews(t *testing.T) {
	c := halfDraw(t)
	res, err := check.Execute(context.Background(), c, check.Options{Flat: true})
	require.NoError(t, err)
	views := CaseViews(res)
	require.Len(t, views, 2, "the reference and the twin's run")
}
