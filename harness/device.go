package harness

import (
	"time"

	"github.com/cogentcore/webgpu/wgpu"

	"github.com/gpudiff/gpudiff/harness/internal/wgpuext"
)

// Device is one opened adapter with its device and queue, reusable for many
// kernels. It also holds the bind group layout and pipeline layout of the
// kernel ABI, created once.
//
// A Device is not safe for concurrent use: calls must not overlap. Use one
// Device per goroutine (devices of the same adapter may coexist). Close it
// when done.
type Device struct {
	info    AdapterInfo
	adapter *wgpu.Adapter
	dev     *wgpu.Device
	sink    *wgpuext.Sink
	queue   *wgpu.Queue
	bgl     *wgpu.BindGroupLayout
	layout  *wgpu.PipelineLayout
	limits  wgpu.Limits
	// The fragment stage (render.go), created on first use: the kernel
	// ABI's fragment-visible layouts (or why the device refuses them) and
	// the vertex module.
	fragBGL    *wgpu.BindGroupLayout
	fragLayout *wgpu.PipelineLayout
	fragErr    error
	vertex     *wgpu.ShaderModule
	broken     *DeviceError // set once the device can no longer be used
	// inflight is set when a Run's ctx ended with GPU work in flight: its
	// poll goroutine sends on it once the work is done and pending, the
	// readback mapping it polls for, has called back.
	inflight <-chan *DeviceError
	pending  *wgpuext.Mapping
	closed   bool
}

// Open opens the wgpu adapter that name designates (its AdapterInfo.Name as
// Adapters reports it, or an alias or unambiguous prefix: see Lookup) and
// requests a device with the adapter's own limits, so storage buffers may be
// as large as the adapter allows (128 MiB on lavapipe and llvmpipe-GL, 1 GiB
// on SwiftShader). An unknown name returns *UnknownAdapterError, an
// ambiguous one *AmbiguousAdapterError; a device the adapter refuses returns
// *DeviceError. OpenAny opens the adapters of every implementation.
//
// Open opens only adapters of this process's driver set (CurrentDriverSet):
// a name of another set's adapter ("wgpu-vulkan:llvmpipe-mesa25" in a
// process of the system's set) returns a *DriverSetError naming the set,
// never a same-named adapter of this process's drivers. In a process of an
// extra set (a worker started with the set's Env) Open also reads the
// driver's identity from the drivers it loaded (Info's driver fields).
func Open(name string) (*Device, error) {
	if set, ok := DriverSetOf(name); ok && set.Name != CurrentDriverSet() {
		return nil, &DriverSetError{Set: set.Name, Version: set.Version, Adapter: name}
	}
	infos, adapters := enumerate()
	want, err := Lookup(infos, name)
	idx := -1
	for i, info := range infos {
		if err == nil && info.Name == want.Name {
			idx = i
		} else {
			adapters[i].Release()
		}
	}
	if err != nil {
		return nil, err
	}
	d := &Device{info: infos[idx], adapter: adapters[idx]}
	if CurrentDriverSet() != "" {
		d.info = withDriver(d.info) // what this process loaded, for the parent to record
	}
	fail := func(op string, err error) (*Device, error) {
		d.Close()
		return nil, &DeviceError{Adapter: d.info.Name, Op: op, Message: stackMessage(err), Err: err}
	}

	dev, sink, err := wgpuext.RequestDevice(d.adapter)
	if err != nil {
		return fail("open", err)
	}
	d.dev, d.sink = dev, sink
	d.queue = dev.GetQueue()
	d.limits = dev.GetLimits().Limits

	storage := func(binding uint32, typ wgpu.BufferBindingType) wgpu.BindGroupLayoutEntry {
		return wgpu.BindGroupLayoutEntry{
			Binding:    binding,
			Visibility: wgpu.ShaderStageCompute,
			Buffer:     wgpu.BufferBindingLayout{Type: typ},
		}
	}
	d.bgl, err = dev.CreateBindGroupLayout(&wgpu.BindGroupLayoutDescriptor{
		Label: "gpudiff kernel ABI",
		Entries: []wgpu.BindGroupLayoutEntry{
			storage(bindingInput, wgpu.BufferBindingTypeReadOnlyStorage),
			storage(bindingOutput, wgpu.BufferBindingTypeStorage),
		},
	})
	if err != nil {
		return fail("open", err)
	}
	d.layout, err = dev.CreatePipelineLayout(&wgpu.PipelineLayoutDescriptor{
		Label:            "gpudiff kernel ABI",
		BindGroupLayouts: []*wgpu.BindGroupLayout{d.bgl},
	})
	if err != nil {
		return fail("open", err)
	}
	return d, nil
}

// Info describes the adapter this Device was opened on. Its driver fields
// are those Adapters or AllAdapters found in this process, if either ran
// (Open itself does not probe drivers: a worker process opens one device
// and needs none); WithDriver fills them in any case.
func (d *Device) Info() AdapterInfo { return withKnownDriver(d.info, false) }

// closeDrainTimeout bounds how long Close waits for work that a timed-out
// Run left in flight.
var closeDrainTimeout = 10 * time.Second

// Close releases the device and everything Open created. It is safe to call
// more than once; the Device cannot be used afterwards.
//
// After a Run whose ctx ended with GPU work in flight, Close first waits up to
// 10 s for that work to finish. If it does not, Close abandons the device
// without releasing anything: wgpu-native (wgpu 0.19.4) corrupts later devices when a
// device is released with work in flight (their submissions fail with
// "Attempt to use a resource with a different device from the one that
// created it", which aborts the process). An abandoned device keeps its
// memory and keeps computing; recycle the process.
func (d *Device) Close() {
	if d.closed {
		return
	}
	d.closed = true
	if d.inflight != nil {
		select {
		case err := <-d.inflight:
			if err == nil { // else the map callback may still come
				d.pending.Free()
			}
		case <-time.After(closeDrainTimeout):
			d.sink.Close()
			return
		}
	}
	if d.vertex != nil {
		d.vertex.Release()
	}
	if d.fragLayout != nil {
		d.fragLayout.Release()
	}
	if d.fragBGL != nil {
		d.fragBGL.Release()
	}
	if d.layout != nil {
		d.layout.Release()
	}
	if d.bgl != nil {
		d.bgl.Release()
	}
	if d.queue != nil {
		d.queue.Release()
	}
	if d.dev != nil {
		d.dev.Release()
	}
	if d.sink != nil {
		d.sink.Close()
	}
	if d.adapter != nil {
		d.adapter.Release()
	}
}
