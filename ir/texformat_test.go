package ir

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTexFormatsAgreeWithTheirNames: each row of the one format table
// says what WebGPU's name of the format says (WebGPU "Texture formats":
// r, rg, rgba or bgra channels of 8, 16 or 32 bits, then the channel
// type; depth16unorm and depth32float one depth channel), read here from
// the name independently of the table: channel count and order, bytes
// per channel and texel, encoding, and the type a shader reads.
func TestTexFormatsAgreeWithTheirNames(t *testing.T) {
	seen := map[string]bool{}
	for f := TexFormat(1); f < numTexFormats; f++ {
		fi := f.Info()
		require.NotEmpty(t, fi.Name, "format %d has no row", f)
		require.False(t, seen[fi.Name], "%s twice", fi.Name)
		seen[fi.Name] = true
		g, ok := LookupFormat(fi.Name)
		assert.True(t, ok && g == f, "LookupFormat(%s)", fi.Name)

		name, depth := fi.Name, strings.HasPrefix(fi.Name, "depth")
		channels, bgra := 1, false
		switch {
		case depth:
			name = name[len("depth"):]
		case strings.HasPrefix(name, "rgba"):
			channels, name = 4, name[4:]
		case strings.HasPrefix(name, "bgra"):
			channels, bgra, name = 4, true, name[4:]
		case strings.HasPrefix(name, "rg"):
			channels, name = 2, name[2:]
		case strings.HasPrefix(name, "r"):
			name = name[1:]
		default:
			t.Fatalf("%s: no channels in its name", fi.Name)
		}
		var bits int
		_, err := fmt.Sscanf(name, "%d", &bits)
		require.NoError(t, err, fi.Name)
		kind := strings.TrimPrefix(name, fmt.Sprint(bits))
		want := KindF32
		switch kind {
		case "uint":
			want = KindU32
		case "sint":
			want = KindI32
		}
		assert.Equal(t, channels, fi.Channels, "%s: channels", fi.Name)
		assert.Equal(t, bits/8, fi.Bytes, "%s: bytes per channel", fi.Name)
		assert.Equal(t, channels*bits/8, fi.TexelSize(), "%s: texel size", fi.Name)
		assert.Equal(t, kind, fi.ChannelType(), "%s: channel type", fi.Name)
		assert.Equal(t, want, fi.Channel, "%s: the type a shader reads", fi.Name)
		assert.Equal(t, bgra, fi.BGRA, "%s: BGRA", fi.Name)
		assert.Equal(t, depth, fi.Depth, "%s: depth", fi.Name)
		if kind == "float" {
			assert.True(t, bits == 16 || bits == 32, "%s: binary16 or binary32", fi.Name)
		}
	}
	assert.Len(t, seen, 33)
}

// TestTexFormatCapabilities: the capability columns, by hand from WebGPU
// §"Plain color formats" and WGSL #storage-texel-formats.
func TestTexFormatCapabilities(t *testing.T) {
	storage := "rgba8unorm rgba8snorm rgba8uint rgba8sint rgba16uint rgba16sint rgba16float r32uint r32sint r32float " +
		"rg32uint rg32sint rg32float rgba32uint rgba32sint rgba32float bgra8unorm"
	// Sample type "float" (not unfilterable-float, uint, sint or depth).
	filterable := "r8unorm r8snorm rg8unorm rg8snorm rgba8unorm rgba8snorm bgra8unorm r16float rg16float rgba16float"
	multisample := "r8unorm r8uint r8sint rg8unorm rg8uint rg8sint rgba8unorm bgra8unorm rgba8uint rgba8sint " +
		"r16uint r16sint r16float rg16uint rg16sint rg16float rgba16uint rgba16sint rgba16float r32float depth16unorm depth32float"
	in := func(list, name string) bool { return strings.Contains(" "+list+" ", " "+name+" ") }
	for _, fi := range TexFormats[1:] {
		assert.Equal(t, in(storage, fi.Name), fi.Storage, "%s: storage", fi.Name)
		assert.Equal(t, in(filterable, fi.Name), fi.Filterable, "%s: filterable", fi.Name)
		assert.Equal(t, in(multisample, fi.Name), fi.Multisample, "%s: multisample", fi.Name)
		f, ok := LookupTexFormat(fi.Name)
		assert.Equal(t, fi.Storage, ok, "LookupTexFormat(%s): only storage texel formats", fi.Name)
		if ok {
			assert.Equal(t, fi.Name, f.String())
		}
	}
	for _, name := range []string{"depth24plus", "r16unorm", "rgba8unorm-srgb", ""} {
		_, ok := FormatInfo(name)
		assert.False(t, ok, "%q", name)
	}
	fi, ok := FormatInfo("rg16float")
	assert.True(t, ok)
	assert.Equal(t, TexFormatInfo{Name: "rg16float", Channel: KindF32, Channels: 2, Bytes: 2, Norm: "float", Filterable: true, Multisample: true}, fi)
}
