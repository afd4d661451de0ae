package harness

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
)

// Draws of a render pipeline as written (issue 39): the user's vertex
// stage (Kernel.VertexWGSL or VertexSPIRV, VertexEntryPoint) and fragment
// stage, vertex and index buffers, the draw call's counts, the primitive
// state and the attachments' clear values. Like every binding, vertex and
// index data are bytes the caller encodes (the harness never decodes a
// vertex attribute); the tables here give only their sizes, which
// validation needs.

// Draw is the draw call of a fragment draw (Dispatch.Draw) and the state
// around it (WebGPU #render-pass-encoder-drawing, #primitive-state). A nil
// Dispatch.Draw is the kernel ABI's: three vertices of VertexWGSL's
// full-screen triangle, one instance, triangle-list, no culling, every
// attachment cleared to zero.
//
// Without Index it is draw(Count, InstanceCount, FirstVertex,
// FirstInstance); with Index drawIndexed(Count, InstanceCount, FirstIndex,
// BaseVertex, FirstInstance) — FirstIndex and BaseVertex must then be zero
// without Index, FirstVertex zero with it. Vertex i of a non-indexed draw
// is FirstVertex + i (@builtin(vertex_index)); of an indexed draw it is
// index[FirstIndex + i] + BaseVertex. Instance j is FirstInstance + j
// (@builtin(instance_index)).
type Draw struct {
	// VertexBuffers are the vertex buffer slots 0, 1, …, each with its
	// layout (GPUVertexBufferLayout) and contents.
	VertexBuffers []VertexBuffer
	// Index, when set, makes the draw indexed.
	Index *IndexBuffer
	// Count is the number of vertices (draw) or indices (drawIndexed).
	Count uint32
	// InstanceCount is the number of instances; 0 counts as 1.
	InstanceCount uint32
	FirstVertex   uint32 // draw only
	FirstIndex    uint32 // drawIndexed only: the first index read, in indices
	// BaseVertex is added to each index of drawIndexed (WebGPU's
	// GPUSignedOffset32: it may be negative).
	BaseVertex    int32
	FirstInstance uint32
	// Topology is "triangle-list" ("" too) or "triangle-strip" (WebGPU
	// GPUPrimitiveTopology; lines and points are left out). An indexed
	// strip restarts at the index 0xFFFF (uint16) or 0xFFFFFFFF (uint32)
	// (WebGPU #primitive-assembly: stripIndexFormat is set to
	// Index.Format).
	Topology string
	// CullMode is "none" ("" too), "front" or "back"; FrontFace "ccw" (""
	// too) or "cw": which winding of the vertices in normalized device
	// coordinates (y up) is front-facing (WebGPU GPUFrontFace, the sign of
	// the polygon's area, WebGPU #polygon-rasterization).
	CullMode  string
	FrontFace string
	// Clear holds each attachment's clear value (GPURenderPassColorAttachment
	// clearValue: r, g, b, a), converted to the attachment's format as
	// WebGPU converts it (an integer format takes the integer value, a
	// unorm format clamps to [0, 1]); a missing one is zero. At most one
	// per attachment.
	Clear [][4]float64
}

// VertexBuffer is one vertex buffer slot (WebGPU GPUVertexBufferLayout):
// its contents, the stride between elements in bytes (a multiple of 4, at
// most maxVertexBufferArrayStride; 0: every vertex or instance reads
// element 0), the step mode ("vertex", "" too, or "instance": advance per
// vertex or per instance) and the attributes read from each element. The
// device buffer is Data zero-padded to a multiple of 4 bytes.
type VertexBuffer struct {
	Data       []byte
	Stride     uint64
	StepMode   string
	Attributes []VertexAttribute
}

// VertexAttribute is one attribute of a vertex buffer (WebGPU
// GPUVertexAttribute): its GPUVertexFormat name ("float32x3", "unorm8x4",
// "sint16x2", …; VertexFormatSize), its byte offset within an element (a
// multiple of min(4, the format's size)) and the @location of the vertex
// shader input it feeds.
type VertexAttribute struct {
	Format         string
	Offset         uint64
	ShaderLocation uint32
}

// IndexBuffer is the index buffer of an indexed draw: Format "uint16" or
// "uint32" (GPUIndexFormat) and the indices, little-endian.
type IndexBuffer struct {
	Format string
	Data   []byte
}

// vertexFormatBytes is the byte size of every GPUVertexFormat (WebGPU
// #vertex-formats): components × component bytes, 4 for the packed
// unorm10-10-10-2.
var vertexFormatBytes = map[string]int{
	"uint8": 1, "uint8x2": 2, "uint8x4": 4, "sint8": 1, "sint8x2": 2, "sint8x4": 4,
	"unorm8": 1, "unorm8x2": 2, "unorm8x4": 4, "snorm8": 1, "snorm8x2": 2, "snorm8x4": 4,
	"uint16": 2, "uint16x2": 4, "uint16x4": 8, "sint16": 2, "sint16x2": 4, "sint16x4": 8,
	"unorm16": 2, "unorm16x2": 4, "unorm16x4": 8, "snorm16": 2, "snorm16x2": 4, "snorm16x4": 8,
	"float16": 2, "float16x2": 4, "float16x4": 8,
	"float32": 4, "float32x2": 8, "float32x3": 12, "float32x4": 16,
	"uint32": 4, "uint32x2": 8, "uint32x3": 12, "uint32x4": 16,
	"sint32": 4, "sint32x2": 8, "sint32x3": 12, "sint32x4": 16,
	"unorm10-10-10-2": 4, "unorm8x4-bgra": 4,
}

// VertexFormatSize returns the byte size of the GPUVertexFormat named
// format (WebGPU #vertex-formats), 0 for an unknown name.
func VertexFormatSize(format string) int { return vertexFormatBytes[format] }

// VertexFormats returns the names of every GPUVertexFormat, sorted. Not
// every adapter takes them all: wgpu-native (wgpu 0.19.4) takes
// VertexFormatsOf(WGPUVertexFormats).
func VertexFormats() []string {
	names := make([]string, 0, len(vertexFormatBytes))
	for n := range vertexFormatBytes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// indexFormatBytes is the size of one index of each GPUIndexFormat.
var indexFormatBytes = map[string]int{"uint16": 2, "uint32": 4}

// DrawLimits are the adapter limits a draw is checked against before its
// pipeline is created (WebGPU #limits; 0 takes WebGPU's default).
type DrawLimits struct {
	MaxVertexBuffers           uint32 // default 8
	MaxVertexAttributes        uint32 // default 16
	MaxVertexBufferArrayStride uint32 // default 2048
	MaxBufferSize              uint64 // default 256 MiB
	// VertexFormats, when set, are the vertex formats the implementation
	// takes; nil: every GPUVertexFormat.
	VertexFormats map[string]bool
}

// WebGPU's default limits on vertex input (WebGPU #limits).
const (
	DefaultMaxVertexBuffers           = 8
	DefaultMaxVertexAttributes        = 16
	DefaultMaxVertexBufferArrayStride = 2048
)

func (l DrawLimits) withDefaults() DrawLimits {
	if l.MaxVertexBuffers == 0 {
		l.MaxVertexBuffers = DefaultMaxVertexBuffers
	}
	if l.MaxVertexAttributes == 0 {
		l.MaxVertexAttributes = DefaultMaxVertexAttributes
	}
	if l.MaxVertexBufferArrayStride == 0 {
		l.MaxVertexBufferArrayStride = DefaultMaxVertexBufferArrayStride
	}
	if l.MaxBufferSize == 0 {
		l.MaxBufferSize = 256 << 20
	}
	return l
}

// WGPUVertexFormats are the vertex formats wgpu-native (wgpu 0.19.4's
// webgpu.h) takes: every GPUVertexFormat but the one-component 8- and
// 16-bit formats, unorm10-10-10-2 and unorm8x4-bgra, which WebGPU added
// after it.
var WGPUVertexFormats = VertexFormatsOf(
	"uint8x2", "uint8x4", "sint8x2", "sint8x4", "unorm8x2", "unorm8x4", "snorm8x2", "snorm8x4",
	"uint16x2", "uint16x4", "sint16x2", "sint16x4", "unorm16x2", "unorm16x4", "snorm16x2", "snorm16x4",
	"float16x2", "float16x4", "float32", "float32x2", "float32x3", "float32x4",
	"uint32", "uint32x2", "uint32x3", "uint32x4", "sint32", "sint32x2", "sint32x3", "sint32x4")

// VertexFormatsOf returns the set of the named formats.
func VertexFormatsOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// UserVertex reports whether k has a vertex stage of its own
// (VertexEntryPoint set) rather than VertexWGSL's full-screen triangle.
func (k Kernel) UserVertex() bool { return k.VertexEntryPoint != "" }

// AsWritten reports whether a fragment draw of k is a render pipeline as
// written — its bindings are job.Buffers, Textures and Samplers, not the
// kernel ABI's input and output buffers: job.Entry, job.Buffers set, a
// Draw, or a vertex stage of k's own.
func (job Dispatch) AsWritten(k Kernel) bool {
	return job.Entry || job.Buffers != nil || job.Draw != nil || k.UserVertex()
}

// EffectiveDraw returns job's draw with its defaults filled in: a nil
// Draw is the full-screen triangle (Count 3), and InstanceCount 0,
// Topology, CullMode and FrontFace "" take 1, "triangle-list", "none" and
// "ccw", a vertex buffer's StepMode "" "vertex"; Clear has one value per
// attachment. The result's Clear and VertexBuffers are copies (their Data
// and Attributes are shared).
func (job Dispatch) EffectiveDraw() Draw {
	var d Draw
	if job.Draw != nil {
		d = *job.Draw
	} else {
		d.Count = 3
	}
	if d.InstanceCount == 0 {
		d.InstanceCount = 1
	}
	def := func(s *string, v string) {
		if *s == "" {
			*s = v
		}
	}
	def(&d.Topology, "triangle-list")
	def(&d.CullMode, "none")
	def(&d.FrontFace, "ccw")
	clear := make([][4]float64, len(job.Attachments))
	copy(clear, d.Clear)
	d.Clear = clear
	d.VertexBuffers = slices.Clone(d.VertexBuffers)
	for i := range d.VertexBuffers {
		def(&d.VertexBuffers[i].StepMode, "vertex")
	}
	return d
}

// checkClear validates clear value c of an attachment of format f: the
// components of f's channels must convert to its texels (WebGPU
// #abstract-opdef-to-a-texel-value-of-texture-format): an integer
// format's as [EnforceRange] converts them — finite and, once the fraction
// is truncated, within the channel's range; a float or unorm format's
// any number (unorm clamps to [0, 1]).
func checkClear(f AttachmentFormat, c [4]float64) error {
	lo, hi := 0.0, 0.0
	switch f {
	case R32Uint, RG32Uint, RGBA32Uint:
		lo, hi = 0, math.MaxUint32
	case R32Sint, RG32Sint, RGBA32Sint:
		lo, hi = math.MinInt32, math.MaxInt32
	default:
		return nil
	}
	channels := map[int]int{4: 1, 8: 2, 16: 4}[f.TexelSize()]
	for i, v := range c[:channels] {
		if t := math.Trunc(v); math.IsNaN(v) || math.IsInf(v, 0) || t < lo || t > hi {
			return fmt.Errorf("clear value component %d is %v, not an integer of %s's range [%v, %v]", i, v, f, lo, hi)
		}
	}
	return nil
}

// CheckDraw validates the vertex stage of k and the draw of job (a
// fragment draw) against an adapter's limits; implementations share it,
// and call it after CheckFragment, before creating the pipeline. It
// refuses: a vertex stage given without its entry point (or the other way
// round), or with both or neither of VertexWGSL and VertexSPIRV; more
// vertex buffers than maxVertexBuffers or attributes than
// maxVertexAttributes; a stride over maxVertexBufferArrayStride or not a
// multiple of 4; an unknown step mode, topology, cull mode, front face or
// index format; a vertex format the implementation does not take; an
// attribute past its element (offset + size over the stride, or over
// maxVertexBufferArrayStride when the stride is 0), misaligned (offset a
// multiple of min(4, size)), at a location ≥ maxVertexAttributes or at a
// location another attribute has (WebGPU #abstract-opdef-validating-gpuvertexbufferlayout);
// a buffer over maxBufferSize; more clear values than attachments, or one
// an integer attachment cannot hold (checkClear);
// FirstIndex or BaseVertex without an index buffer, FirstVertex with one;
// and a draw that reads past a buffer where WebGPU's draw validation does
// (#abstract-opdef-validate-encoder-bind-groups … "validate draw": a
// vertex-step buffer of a non-indexed draw and every instance-step
// buffer must hold (strideCount − 1) × stride + the attributes' extent
// bytes, strideCount being FirstVertex + Count or FirstInstance +
// InstanceCount when it is not 0; the index buffer must hold FirstIndex +
// Count indices). The vertex-step buffers of an indexed draw are not
// checked: an index past them is robust buffer access, the shader's
// concern (WebGPU #security-shader).
func CheckDraw(k Kernel, job Dispatch, adapter string, l DrawLimits) error {
	l = l.withDefaults()
	if k.UserVertex() {
		if (k.VertexWGSL == "") == (len(k.VertexSPIRV) == 0) {
			return errors.New("harness: a vertex stage must have exactly one of VertexWGSL and VertexSPIRV")
		}
	} else if k.VertexWGSL != "" || len(k.VertexSPIRV) > 0 {
		return errors.New("harness: a vertex stage (VertexWGSL or VertexSPIRV) needs its VertexEntryPoint")
	}
	if job.AsWritten(k) && (len(job.Input) > 0 || job.OutputSize != 0 || job.Invocations != 0) {
		return errors.New("harness: a render pipeline as written (a Draw or a vertex stage of its own) has no Input, OutputSize or Invocations")
	}
	if job.Draw == nil {
		return nil
	}
	d := job.EffectiveDraw()
	switch {
	case !slices.Contains([]string{"triangle-list", "triangle-strip"}, d.Topology):
		return fmt.Errorf("harness: topology %q, want triangle-list or triangle-strip", d.Topology)
	case !slices.Contains([]string{"none", "front", "back"}, d.CullMode):
		return fmt.Errorf("harness: cull mode %q, want none, front or back", d.CullMode)
	case !slices.Contains([]string{"ccw", "cw"}, d.FrontFace):
		return fmt.Errorf("harness: front face %q, want ccw or cw", d.FrontFace)
	case len(job.Draw.Clear) > len(job.Attachments):
		return fmt.Errorf("harness: %d clear values for %d colour attachments", len(job.Draw.Clear), len(job.Attachments))
	case uint32(len(d.VertexBuffers)) > l.MaxVertexBuffers:
		return fmt.Errorf("harness: %d vertex buffers, over %s's maxVertexBuffers of %d", len(d.VertexBuffers), adapter, l.MaxVertexBuffers)
	case d.Index == nil && (d.FirstIndex != 0 || d.BaseVertex != 0):
		return errors.New("harness: FirstIndex and BaseVertex are for an indexed draw (an Index buffer)")
	case d.Index != nil && d.FirstVertex != 0:
		return errors.New("harness: FirstVertex is for a non-indexed draw; an indexed draw has FirstIndex and BaseVertex")
	}
	attributes := 0
	for _, b := range d.VertexBuffers {
		attributes += len(b.Attributes)
	}
	if uint32(attributes) > l.MaxVertexAttributes {
		return fmt.Errorf("harness: %d vertex attributes, over %s's maxVertexAttributes of %d", attributes, adapter, l.MaxVertexAttributes)
	}
	for i, c := range job.Draw.Clear {
		if err := checkClear(job.Attachments[i], c); err != nil {
			return fmt.Errorf("harness: colour attachment %d: %w", i, err)
		}
	}
	locations := map[uint32]int{}
	for slot, b := range d.VertexBuffers {
		where := fmt.Sprintf("vertex buffer %d", slot)
		switch {
		case b.StepMode != "vertex" && b.StepMode != "instance":
			return fmt.Errorf("harness: %s has step mode %q, want vertex or instance", where, b.StepMode)
		case b.Stride > uint64(l.MaxVertexBufferArrayStride):
			return fmt.Errorf("harness: %s has stride %d, over %s's maxVertexBufferArrayStride of %d", where, b.Stride, adapter, l.MaxVertexBufferArrayStride)
		case b.Stride%4 != 0:
			return fmt.Errorf("harness: %s has stride %d, not a multiple of 4", where, b.Stride)
		case uint64(bufferSize(len(b.Data))) > l.MaxBufferSize:
			return fmt.Errorf("harness: %s of %d bytes, over %s's maxBufferSize of %d", where, len(b.Data), adapter, l.MaxBufferSize)
		}
		extent := uint64(0) // the attributes' bytes within an element ("lastStride")
		for i, a := range b.Attributes {
			size := uint64(VertexFormatSize(a.Format))
			at := fmt.Sprintf("%s attribute %d (@location(%d))", where, i, a.ShaderLocation)
			limit := b.Stride
			if limit == 0 {
				limit = uint64(l.MaxVertexBufferArrayStride)
			}
			switch {
			case size == 0:
				return fmt.Errorf("harness: %s has unknown vertex format %q", at, a.Format)
			case l.VertexFormats != nil && !l.VertexFormats[a.Format]:
				return &UnsupportedError{Adapter: adapter, Reason: fmt.Sprintf("%s has vertex format %s, which this implementation does not take", at, a.Format)}
			case a.Offset%min(4, size) != 0:
				return fmt.Errorf("harness: %s at offset %d, not a multiple of %d", at, a.Offset, min(4, size))
			case a.Offset+size > limit:
				return fmt.Errorf("harness: %s at offset %d with %d bytes runs past %d bytes (the stride, or maxVertexBufferArrayStride for stride 0)", at, a.Offset, size, limit)
			case a.ShaderLocation >= l.MaxVertexAttributes:
				return fmt.Errorf("harness: %s is over %s's maxVertexAttributes of %d", at, adapter, l.MaxVertexAttributes)
			}
			if other, ok := locations[a.ShaderLocation]; ok {
				return fmt.Errorf("harness: %s: vertex buffer %d already feeds @location(%d)", at, other, a.ShaderLocation)
			}
			locations[a.ShaderLocation] = slot
			extent = max(extent, a.Offset+size)
		}
		// WebGPU's draw validation of the buffer's range.
		strideCount := uint64(d.FirstInstance) + uint64(d.InstanceCount)
		if b.StepMode == "vertex" {
			if d.Index != nil {
				continue
			}
			strideCount = uint64(d.FirstVertex) + uint64(d.Count)
		}
		if strideCount == 0 || extent == 0 {
			continue
		}
		if need := (strideCount-1)*b.Stride + extent; need > uint64(len(b.Data)) {
			return fmt.Errorf("harness: %s holds %d bytes; the draw reads %d (%d elements of stride %d, the last %d bytes)",
				where, len(b.Data), need, strideCount, b.Stride, extent)
		}
	}
	if d.Index != nil {
		size := indexFormatBytes[d.Index.Format]
		switch {
		case size == 0:
			return fmt.Errorf("harness: index format %q, want uint16 or uint32", d.Index.Format)
		case uint64(bufferSize(len(d.Index.Data))) > l.MaxBufferSize:
			return fmt.Errorf("harness: index buffer of %d bytes, over %s's maxBufferSize of %d", len(d.Index.Data), adapter, l.MaxBufferSize)
		case uint64(d.FirstIndex)+uint64(d.Count) > uint64(len(d.Index.Data)/size):
			return fmt.Errorf("harness: the draw reads indices %d to %d of an index buffer of %d", d.FirstIndex, uint64(d.FirstIndex)+uint64(d.Count), len(d.Index.Data)/size)
		}
	}
	return nil
}
