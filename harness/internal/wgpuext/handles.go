package wgpuext

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/cogentcore/webgpu/wgpu"
)

// These mirror the binding's handle structs field for field (names, order,
// pointer-sized C handles). layoutErr checks that they still do.
type (
	rawInstance     struct{ ref unsafe.Pointer }
	rawDevice       struct{ ref unsafe.Pointer }
	rawAdapter      struct{ ref unsafe.Pointer }
	rawShaderModule struct{ ref unsafe.Pointer }
	rawBuffer       struct{ deviceRef, ref unsafe.Pointer }
	rawSurface      struct{ deviceRef, ref unsafe.Pointer }
	rawTexture      struct{ deviceRef, ref unsafe.Pointer }
)

// mirror pairs a binding type with the struct that mirrors its layout.
type mirror struct{ binding, mirror reflect.Type }

// mirrors lists every binding type this package reaches into.
var mirrors = []mirror{
	{reflect.TypeFor[wgpu.Instance](), reflect.TypeFor[rawInstance]()},
	{reflect.TypeFor[wgpu.Device](), reflect.TypeFor[rawDevice]()},
	{reflect.TypeFor[wgpu.Adapter](), reflect.TypeFor[rawAdapter]()},
	{reflect.TypeFor[wgpu.ShaderModule](), reflect.TypeFor[rawShaderModule]()},
	{reflect.TypeFor[wgpu.Buffer](), reflect.TypeFor[rawBuffer]()},
	{reflect.TypeFor[wgpu.Surface](), reflect.TypeFor[rawSurface]()},
	{reflect.TypeFor[wgpu.Texture](), reflect.TypeFor[rawTexture]()},
}

// layoutErr reports the first binding handle struct whose layout differs
// from its mirror.
func layoutErr() error { return checkMirrors(mirrors) }

// checkMirrors reports the first pair whose binding type differs from its
// mirror: a different size, field count, field name, order or offset, or a
// field that is not a pointer.
func checkMirrors(pairs []mirror) error {
	for _, m := range pairs {
		b, r := m.binding, m.mirror
		if b.Size() != r.Size() || b.NumField() != r.NumField() {
			return fmt.Errorf("wgpuext: %v has size %d and %d fields, mirror expects %d and %d: binding layout changed",
				b, b.Size(), b.NumField(), r.Size(), r.NumField())
		}
		for i := range b.NumField() {
			bf, rf := b.Field(i), r.Field(i)
			if bf.Name != rf.Name || bf.Offset != rf.Offset || bf.Type.Size() != rf.Type.Size() ||
				(bf.Type.Kind() != reflect.Pointer && bf.Type.Kind() != reflect.UnsafePointer) {
				return fmt.Errorf("wgpuext: %v field %d is %s %v at offset %d, mirror expects pointer %s at %d: binding layout changed",
					b, i, bf.Name, bf.Type, bf.Offset, rf.Name, rf.Offset)
			}
		}
	}
	return nil
}

func instanceRef(i *wgpu.Instance) unsafe.Pointer { return (*rawInstance)(unsafe.Pointer(i)).ref }

func deviceRef(d *wgpu.Device) unsafe.Pointer { return (*rawDevice)(unsafe.Pointer(d)).ref }

func adapterRef(a *wgpu.Adapter) unsafe.Pointer { return (*rawAdapter)(unsafe.Pointer(a)).ref }

func bufferRef(b *wgpu.Buffer) unsafe.Pointer { return (*rawBuffer)(unsafe.Pointer(b)).ref }

func wrapDevice(ref unsafe.Pointer) *wgpu.Device {
	d := new(wgpu.Device)
	(*rawDevice)(unsafe.Pointer(d)).ref = ref
	return d
}

func wrapShaderModule(ref unsafe.Pointer) *wgpu.ShaderModule {
	m := new(wgpu.ShaderModule)
	(*rawShaderModule)(unsafe.Pointer(m)).ref = ref
	return m
}

func surfaceRef(s *wgpu.Surface) unsafe.Pointer { return (*rawSurface)(unsafe.Pointer(s)).ref }

func wrapTexture(device, ref unsafe.Pointer) *wgpu.Texture {
	t := new(wgpu.Texture)
	(*rawTexture)(unsafe.Pointer(t)).deviceRef = device
	(*rawTexture)(unsafe.Pointer(t)).ref = ref
	return t
}
