package wgpuext

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/cogentcore/webgpu/wgpu"
)

// TestMirrorsMatchBinding guards the unsafe handle access: if a binding
// upgrade changes a handle struct, this fails (and every entry point refuses
// to run) instead of memory being corrupted.
func TestMirrorsMatchBinding(t *testing.T) {
	if err := layoutErr(); err != nil {
		t.Fatal(err)
	}
	// The check itself must be able to fail.
	for _, bad := range []mirror{
		{reflect.TypeFor[wgpu.Buffer](), reflect.TypeFor[rawDevice]()},             // field count
		{reflect.TypeFor[wgpu.Device](), reflect.TypeFor[struct{ dev uintptr }]()}, // name, kind
	} {
		if err := checkMirrors([]mirror{bad}); err == nil {
			t.Errorf("checkMirrors(%v vs %v) = nil, want a layout error", bad.binding, bad.mirror)
		}
	}
}

func TestAllSymbolsLinked(t *testing.T) {
	if s := MissingSymbol(); s != "" {
		t.Fatalf("wgpu-native function %s is not linked; the -Wl,-undefined flags in link.go must name it", s)
	}
}

// TestHeadersMatchBinding checks that include/ still holds verbatim copies of
// the headers of the binding module this build uses.
func TestHeadersMatchBinding(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/cogentcore/webgpu").Output()
	if err != nil {
		t.Fatalf("go list -m github.com/cogentcore/webgpu: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	for _, name := range []string{"webgpu.h", "wgpu.h"} {
		want, err := os.ReadFile(filepath.Join(dir, "wgpu", "lib", name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("include", name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("include/%s differs from %s: copy it again from the binding's wgpu/lib", name, dir)
		}
	}
}

// firstDevice opens a device on the first adapter of a private instance.
func firstDevice(t *testing.T) (*wgpu.Device, *Sink) {
	t.Helper()
	t.Setenv("NODEVICE_SELECT", "1") // quiet Mesa's device-select layer, as package harness does
	inst := wgpu.CreateInstance(&wgpu.InstanceDescriptor{Backends: wgpu.InstanceBackendVulkan})
	t.Cleanup(inst.Release)
	adapters := inst.EnumerateAdapters(nil)
	if len(adapters) == 0 {
		t.Fatal("no Vulkan adapter: install mesa-vulkan-drivers (make deps)")
	}
	for _, a := range adapters[1:] {
		a.Release()
	}
	t.Cleanup(adapters[0].Release)
	dev, sink, err := RequestDevice(adapters[0])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dev.Release(); sink.Close() })
	return dev, sink
}

// TestCreateShaderModuleSPIRVRejectsGarbage: a malformed module is an error
// value with wgpu-native's message, not an abort, and reports no uncaptured
// error.
func TestCreateShaderModuleSPIRVRejectsGarbage(t *testing.T) {
	dev, sink := firstDevice(t)
	// A valid header (magic, version 1.3, generator, bound, schema) followed
	// by an instruction whose word count is 0.
	words := []uint32{0x07230203, 0x00010300, 0, 8, 0, 0}
	m, err := CreateShaderModuleSPIRV(dev, words)
	var e *Error
	if !errors.As(err, &e) {
		if m != nil {
			m.Release()
		}
		t.Fatalf("CreateShaderModuleSPIRV(garbage) = %v, want *Error", err)
	}
	if !strings.Contains(e.Message, "word count") {
		t.Errorf("message %q does not mention the bad word count", e.Message)
	}
	if ev := sink.Drain(); len(ev) != 0 {
		t.Errorf("uncaptured events %v, want none", ev)
	}
}

// TestGetenvSeesSetenv: os.Setenv reaches C's environ under cgo, which is
// what lets package harness point the Vulkan loader at SwiftShader.
func TestGetenvSeesSetenv(t *testing.T) {
	t.Setenv("GPUDIFF_WGPUEXT_TEST", "reached C")
	if v, ok := Getenv("GPUDIFF_WGPUEXT_TEST"); !ok || v != "reached C" {
		t.Fatalf("C getenv = %q, %v; want %q", v, ok, "reached C")
	}
}

// TestDeviceFeatures: the WebGPU optional features and wgpu's
// TEXTURE_ADAPTER_SPECIFIC_FORMAT_FEATURES are requested, in the adapter's
// order; the other native features (here push constants and vertex
// writable storage) are not.
func TestDeviceFeatures(t *testing.T) {
	have := []wgpu.FeatureName{
		wgpu.NativeFeaturePushConstants,
		wgpu.FeatureNameBGRA8UnormStorage,
		wgpu.NativeFeatureTextureAdapterSpecificFormatFeatures,
		wgpu.NativeFeatureVertexWritableStorage,
		wgpu.FeatureNameFloat32Filterable,
	}
	want := []wgpu.FeatureName{
		wgpu.FeatureNameBGRA8UnormStorage,
		wgpu.NativeFeatureTextureAdapterSpecificFormatFeatures,
		wgpu.FeatureNameFloat32Filterable,
	}
	if got := DeviceFeatures(have); !reflect.DeepEqual(got, want) {
		t.Errorf("DeviceFeatures = %v, want %v", got, want)
	}
}
