// Package amber exports a gpudiff case as an Amber script (google/amber,
// AmberScript): gpudiff's own SPIR-V of the kernel (or its flattened twin)
// as SPIR-V assembly, the kernel ABI's input and output storage buffers
// with their exact bytes, one dispatch, and an EXPECT for every determinate
// output leaf of the reference interpreter — the self-contained, vendor-
// neutral repro a driver engineer can run with `amber` and no gpudiff.
//
// Buffer typing. Amber compares an EXPECT's values using the DATA_TYPE of
// the buffer it names (src/amberscript/parser.cc ParseExpect sets the
// probe's format from the buffer; src/verifier.cc ProbeSSBO reads
// elements of that type at the byte offset IDX, which must be a multiple of
// the element size). One binding holds one buffer, and a kernel's output
// record mixes i32, u32, bool (as u32) and f32 leaves, and a STRUCT data
// type cannot be probed by value (ProbeSSBO knows only scalar formats). So
// the output buffer "out" is bound as uint32 — it serves the u32 and bool
// leaves — and after RUN the script copies it byte for byte (COPY: Buffer::
// CopyTo copies the bytes; both types are 4 bytes wide, so element counts
// match) into "out_i32" (int32) and "out_f32" (float), which serve the
// i32 and f32 leaves. Every EXPECT thus compares one leaf type with its own
// type.
//
// Values. Integers are written in decimal (negative i32 values as such);
// f32 values as the shortest decimal that round-trips the float32, always
// with a '.' (Amber's tokenizer reads a number without one as an integer:
// "1e+09" would split into 1 and "e+09"). An f32 leaf the reference
// requires exactly compares with EQ (Amber's float EQ allows a relative
// 1e-8, below a float32 ULP); one with a WGSL accuracy bound compares with
// TOLERANCE <bound> (absolute); a subnormal expected value compares with
// TOLERANCE |value| (WGSL lets implementations flush it to zero).
// Indeterminate leaves get no EXPECT, and a comment says why.
//
// A draw case (testcase.KindDraw) is a graphics pipeline instead
// (draw.go: ExportDraw): both stages' SPIR-V, the draw's vertex and index
// data, counts and clear colour, WebGPU's y flip as a negative viewport,
// and an EXPECT per pixel of each colour attachment — EQ_RGBA or EQ where
// the reference is exact, a GE and an LE line where it is a bound or an
// interval, a comment where it is a set Amber's comparisons cannot state.
//
// amber never runs a GPU (tests cross-check exported scripts on lavapipe)
// and never changes the case it is given.
//
// amber sits under report because a script is a way to hand a result to
// someone else; unlike report's renderers it is a translation, not a
// rendering: Export computes what the script states — the reference
// (interp), the twin (flatten) and gpudiff's SPIR-V (compiler/spirv) — from
// the case alone, without a device.
//
// amber owns the translation of a case (module, kernel, arguments and the
// reference) into an Amber script. It must never run anything on a GPU,
// decide a verdict, or change the case: the script states what the
// reference interpreter computed, and Amber compares.
package amber
