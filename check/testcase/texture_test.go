package testcase

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const storeLoad = "../../shaders/textures/store_load.wgsl"

func loadTex(t *testing.T, path string) *Case {
	t.Helper()
	c, err := Load(path, LoadOptions{})
	require.NoError(t, err)
	return c
}

// A case record holds the textures and samplers; parsing it gives them back.
func TestTextureCaseRecordRoundTrip(t *testing.T) {
	c := loadTex(t, storeLoad)
	raw := EntryInputsJSON(c.Entry())
	bufs, texs, smps, err := parseEntryInputs("rec: inputs", raw, c.Module)
	require.NoError(t, err)
	assert.Empty(t, bufs)
	for name, tex := range c.Textures {
		assert.Equal(t, tex, texs[name], name)
	}
	assert.Equal(t, c.Samplers, smps)
	// Made-up textures too (seeded random bytes, a float16 format).
	m := c.Module
	ft, fs, err := FillTextures(FillRandom, 7, m)
	require.NoError(t, err)
	ec := &ComputeCase{Module: m, Entry: "main", Textures: ft, Samplers: fs}
	_, texs, smps, err = parseEntryInputs("rec", EntryInputsJSON(ec), m)
	require.NoError(t, err)
	assert.Equal(t, ft, texs)
	assert.Equal(t, fs, smps)
}

func TestF16RoundTrip(t *testing.T) {
	for _, x := range []float32{0, 1, -2, 0.25, 65504, 1.0 / 1024 / 16384, 3.140625} {
		assert.Equal(t, x, f16ToF32(f32ToF16(x)), "%v", x)
	}
	assert.Equal(t, uint16(0x3c00), f32ToF16(1+1.0/4096), "ties to even")
}
