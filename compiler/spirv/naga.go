package spirv

import "strconv"

// NagaGap returns why wgpu-native (wgpu 0.19.4) cannot read the SPIR-V module
// words (as Emit writes it: valid, spirv-val accepts it), or "" when
// nothing in it is known to stop wgpu's SPIR-V front end (naga's
// front/spv). wgpu refuses such a module before it reaches the driver,
// with a compile error that is the stack's and says nothing about the
// shader: check skips those runs on wgpu with this reason (the WGSL runs
// still cover the entry point). check's TestWgpuSPIRVGaps asserts that
// wgpu still refuses each gap, so it notices when an upgrade closes one.
//
// The gaps (SPIR-V 1.6 §3.49 opcodes):
//   - atomic instructions, OpAtomicLoad … OpAtomicXor (227–242): naga's
//     front end reads none (gfx-rs/wgpu#4489);
//   - OpImageGather and OpImageDrefGather (96, 97), WGSL's textureGather
//     and textureGatherCompare: "unsupported instruction ImageGather";
//   - OpImageQuerySize and OpImageQuerySizeLod (104, 103) of an arrayed
//     image whose layer count (component 2) the module uses: naga reads the
//     query as the size without the layer count ("TODO: handle arrays and
//     cubes" in front/spv/image.rs), so its validator refuses the module
//     ("Operation Subtract can't work with …", "Index 2 is out of
//     bounds"). gpudiff's SPIR-V uses it for textureNumLayers and to clamp
//     the coordinates of textureLoad and textureStore on array textures;
//     textureDimensions of one takes components 0 and 1 only, which naga
//     reads right (but naga's size of a 1D array texture is a scalar: any
//     use of it is a gap);
//   - OpCapability DemoteToHelperInvocation (a fragment entry point's
//     discard under DiscardDemote, render.go): naga's front end accepts
//     only the capabilities of its SUPPORTED_CAPABILITIES (front/spv/mod.rs)
//     and refuses the others; the same entry point emitted with
//     Options.Discard = DiscardKill has no such gap;
//   - the subgroup capabilities, GroupNonUniform and
//     GroupNonUniformVote … GroupNonUniformQuad (subgroup builtins and
//     builtin values, subgroup.go): not in SUPPORTED_CAPABILITIES either
//     ("unsupported capability GroupNonUniformArithmetic"; naga has no
//     subgroup operations before 0.20, gfx-rs/wgpu#5301);
//   - OpTypeFloat 16 (f16, f16.go): naga 0.19 has no 16-bit floats — its
//     front end refuses the constants' width ("invalid type width %2")
//     and its validator accepts only 4- and 8-byte floats
//     (valid/type.rs check_width); the 16-bit storage capabilities that
//     come with it are not in SUPPORTED_CAPABILITIES either.
//
// NagaGapError returns the same reason as a *GapError.
func NagaGap(words []uint32) string {
	arrayed := map[uint32]bool{}  // image and sampled image type ids: arrayed?
	oneD := map[uint32]bool{}     // … of Dim 1D
	typeOf := map[uint32]uint32{} // loaded or extracted image ids: their type
	sizes := map[uint32]bool{}    // size queries of arrayed images
	for i := headerLength; i < len(words); {
		n, op := int(words[i]>>16), opcode(words[i]&0xffff)
		if n == 0 || i+n > len(words) {
			return "" // malformed: let the stack say so
		}
		in := words[i : i+n]
		i += n
		switch {
		case op >= opAtomicLoad && op <= opAtomicXor:
			return "wgpu 0.19.4's SPIR-V front end (naga 0.19.2) reads no atomic instructions (gfx-rs/wgpu#4489): the WGSL runs cover this entry point"
		case op == opCapability && n == 2 && in[1] == capabilityDemoteToHelperInvocation:
			return demoteGap
		case op == opCapability && n == 2 && in[1] >= capabilityGroupNonUniform && in[1] <= capabilityGroupNonUniformQuad:
			return subgroupGap + " (OpCapability " + enumName(kindCapability, in[1]) + ")"
		case op == opTypeFloat && n == 3 && in[2] == 16:
			return f16Gap
		case op == opImageGather || op == opImageDrefGather:
			return "wgpu 0.19.4's SPIR-V front end (naga 0.19.2) reads no OpImageGather or OpImageDrefGather (textureGather, textureGatherCompare): the WGSL runs cover this entry point"
		case op == opTypeImage && n > 5:
			arrayed[in[1]] = in[5] == 1
			oneD[in[1]] = in[3] == 0
		case op == opTypeSampledImage && n > 2:
			arrayed[in[1]], oneD[in[1]] = arrayed[in[2]], oneD[in[2]]
		case (op == opLoad || op == opSampledImage || op == opImage) && n > 3:
			typeOf[in[2]] = in[1]
		case (op == opImageQuerySize || op == opImageQuerySizeLod) && n > 3:
			if ty := typeOf[in[3]]; arrayed[ty] && oneD[ty] {
				return arrayGap // naga's size of a 1D array is a scalar
			} else if arrayed[ty] {
				sizes[in[2]] = true
			}
		}
	}
	if len(sizes) == 0 {
		return ""
	}
	// A use of such a query other than taking component 0 or 1.
	for i := headerLength; i < len(words); {
		n, op := int(words[i]>>16), opcode(words[i]&0xffff)
		in := words[i : i+n]
		i += n
		switch {
		case op == opCompositeExtract && n == 5 && sizes[in[3]]:
			if in[4] < 2 {
				continue
			}
		case op == opVectorShuffle && n > 5 && sizes[in[3]] && (in[4] == in[3] || !sizes[in[4]]):
			// Components 0 and 1 of the query (the second vector, when
			// it is not the query itself, is not read through it).
			ok := true
			for _, c := range in[5:] {
				ok = ok && (c < 2 || c == 0xffffffff || in[4] != in[3] && c >= 3)
			}
			if ok {
				continue
			}
		case (op == opImageQuerySize || op == opImageQuerySizeLod) && n > 3 && sizes[in[2]]:
			continue // the query itself
		default:
			used := false
			for _, w := range in[1:] {
				used = used || sizes[w]
			}
			if !used {
				continue
			}
		}
		return arrayGap
	}
	return ""
}

// arrayGap is NagaGap's reason for a size query of an array texture.
const arrayGap = "wgpu 0.19.4's SPIR-V front end (naga 0.19.2) reads the size of an array texture without its layer count (OpImageQuerySize of an arrayed image; front/spv/image.rs: \"TODO: handle arrays and cubes\"), and its validator then refuses the module: the WGSL runs cover this entry point"

// demoteGap is NagaGap's reason for OpDemoteToHelperInvocation.
const demoteGap = "wgpu 0.19.4's SPIR-V front end (naga 0.19.2) refuses the capability DemoteToHelperInvocation (discard lowered to OpDemoteToHelperInvocation): emit with Options.Discard = DiscardKill for wgpu, or let the WGSL runs cover this entry point"

// subgroupGap is NagaGap's reason for the subgroup capabilities.
const subgroupGap = "wgpu 0.19.4's SPIR-V front end (naga 0.19.2) refuses the subgroup capabilities (\"unsupported capability\": naga has no subgroup operations before 0.20, gfx-rs/wgpu#5301): the WGSL runs on stacks with the subgroups feature cover this entry point"

// f16Gap is NagaGap's reason for OpTypeFloat 16.
const f16Gap = "wgpu 0.19.4's SPIR-V front end (naga 0.19.2) reads no 16-bit floats (OpTypeFloat 16: \"invalid type width %2\"; naga 0.19 has no f16): the WGSL runs on stacks with shader-f16 cover this entry point"

// GapError is the refusal a stack is known to give a valid module before
// it reaches the driver (NagaGapError): not a finding about the shader.
// Stack names the stack ("wgpu 0.19.4"), Reason says what it refuses and
// why, as NagaGap does.
type GapError struct {
	Stack  string
	Reason string
}

func (e *GapError) Error() string { return e.Reason }

// NagaGapError returns NagaGap's reason as a *GapError (Stack "wgpu
// 0.19.4"), or nil when wgpu-native's SPIR-V front end is known to read
// words: callers recognise the refusal with errors.As.
func NagaGapError(words []uint32) error {
	if r := NagaGap(words); r != "" {
		return &GapError{Stack: "wgpu 0.19.4", Reason: r}
	}
	return nil
}

// enumName is the grammar name of value v of the enum operand kind k, or
// its number.
func enumName(k operandKind, v uint32) string {
	for _, en := range operandKinds[k].enumerants {
		if en.value == v {
			return en.name
		}
	}
	return strconv.FormatUint(uint64(v), 10)
}
