package dawn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/gpudiff/gpudiff/harness"
)

// ErrNoSPIRV is returned by Device.Run for a kernel given as SPIR-V:
// dawn.node's createShaderModule takes its code only as WGSL text (it turns
// a Uint32Array into the string "119734787,65536,..." and Tint rejects
// that). It is a limit of this implementation, not a verdict on the kernel.
var ErrNoSPIRV = fmt.Errorf("dawn: SPIR-V shader modules are not supported by dawn.node or Deno's WebGPU (WGSL only): %w", harness.ErrUnsupported)

// Device is one opened Dawn adapter: a node worker process with a device on
// that adapter and the kernel ABI's bind group and pipeline layouts, reused
// for many kernels. Its method set is harness.Device's (harness.Runner).
//
// Calls are serialized; still, use one Device per goroutine to run kernels
// in parallel (each has its own process). Close it when done: it ends the
// process.
type Device struct {
	info  harness.AdapterInfo
	wire  wireAdapter
	env   []string // over the worker's usual environment (adapter.env)
	tools tools
	// allFeatures makes the worker request every feature of the adapter
	// (Validator's null device).
	allFeatures bool
	mu          sync.Mutex
	w           *worker // nil between a dead or killed worker and the next Run
	nextID      uint64
	starts      int // workers started, for tests
	closed      bool
	// compileTimeout and timeout bound each Run's compile and dispatch
	// phases (SetTimeouts; zero: the defaults).
	compileTimeout, timeout time.Duration
}

var _ harness.Runner = (*Device)(nil)

// Open opens the Dawn adapter that name designates (its name as Adapters
// reports it, or an unambiguous prefix such as "dawn-vulkan"; see
// harness.Lookup) and starts its worker, which requests a device with the
// adapter's own buffer, binding and compute limits, as harness.Open does
// (1 GiB storage bindings on SwiftShader, 128 MiB on llvmpipe-GL). Errors: *harness.UnknownAdapterError or
// *harness.AmbiguousAdapterError for the name, an error wrapping
// ErrNotInstalled when node or the npm package is missing,
// *harness.DeviceError (Op "open") when the worker cannot get the device.
func Open(name string) (*Device, error) { return openIn(dawnListing, locate, name) }

// openIn opens the adapter of l that name designates with the tools
// locate finds.
func openIn(l *listing, locate func() (tools, error), name string) (*Device, error) {
	as, err := l.get()
	if err != nil {
		return nil, err
	}
	t, err := locate()
	if err != nil {
		return nil, err
	}
	infos := make([]harness.AdapterInfo, len(as))
	for i, a := range as {
		infos[i] = a.info
	}
	info, err := harness.Lookup(infos, name)
	if err != nil {
		return nil, err
	}
	d := &Device{info: info, tools: t}
	for _, a := range as {
		if a.info.Name == info.Name {
			d.wire, d.env = a.wire, a.env
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if err := d.start(ctx); err != nil {
		return nil, err
	}
	return d, nil
}

// Info describes the adapter this Device was opened on.
func (d *Device) Info() harness.AdapterInfo { return d.info }

// start starts a worker on d's adapter and waits for its device.
func (d *Device) start(ctx context.Context) error {
	args := []string{"serve", d.wire.Backend, d.wire.Name, d.wire.FeatureLevel}
	if d.allFeatures {
		args = append(args, "all-features")
	}
	w, err := startWorker(d.tools, d.env, args...)
	if err != nil {
		return d.fail("open", err.Error(), err)
	}
	d.starts++
	var reply struct {
		Ready *wireAdapter `json:"ready"`
		Fatal string       `json:"fatal"`
	}
	if err := w.read(ctx, &reply); err != nil {
		w.kill()
		if err == errDied {
			return d.fail("open", w.postMortem(), nil)
		}
		return d.fail("open", "waiting for the worker's device: "+err.Error(), err)
	}
	if reply.Ready == nil {
		w.stop()
		return d.fail("open", reply.Fatal, nil)
	}
	d.wire.Limits = reply.Ready.Limits
	d.w = w
	return nil
}

func (d *Device) fail(op, msg string, err error) *harness.DeviceError {
	return &harness.DeviceError{Adapter: d.info.Name, Op: op, Message: msg, Err: err}
}

// request is a Run, or a compile-only request (Compile set), as worker.mjs
// takes it.
type request struct {
	ID          uint64   `json:"id"`
	WGSL        string   `json:"wgsl"`
	EntryPoint  string   `json:"entryPoint"`
	Input       []byte   `json:"input"` // base64 in JSON
	OutputSize  int      `json:"outputSize"`
	Invocations int      `json:"invocations"`
	Compile     []string `json:"compile,omitempty"` // WGSL texts; the rest is then unused
	// A fragment draw (harness.FragmentStage): the stage, the vertex
	// stage's WGSL (harness.VertexWGSL, or the kernel's own) and entry
	// point, the target and the attachments.
	Stage            string                     `json:"stage,omitempty"`
	Vertex           string                     `json:"vertex,omitempty"`
	VertexEntryPoint string                     `json:"vertexEntryPoint,omitempty"`
	Target           [2]uint32                  `json:"target,omitzero"`
	Attachments      []harness.AttachmentFormat `json:"attachments,omitempty"`
	// Entry: a render pipeline as written (harness.Dispatch.AsWritten):
	// its Bindings, Textures and Samplers, visible to the vertex stage too
	// when VertexVisible (a vertex stage of the kernel's own; read_write
	// storage buffers and written storage textures stay fragment-only).
	Entry         bool `json:"entry,omitempty"`
	VertexVisible bool `json:"vertexVisible,omitempty"`
	// Draw is the draw call (harness.Dispatch.EffectiveDraw), Clear each
	// attachment's clear value.
	Draw  *wireDraw    `json:"draw,omitempty"`
	Clear [][4]float64 `json:"clear,omitempty"`
	// Workgroups, when set, makes this a dispatch of a module as written
	// (harness.Dispatch.Buffers): Bindings are its buffers, Input,
	// OutputSize and Invocations unused.
	Workgroups *[3]uint32    `json:"workgroups,omitempty"`
	Bindings   []wireBinding `json:"bindings,omitempty"`
	// Textures and Samplers: harness.Dispatch's, as worker.mjs takes them.
	Textures []wireTexture `json:"textures,omitempty"`
	Samplers []wireSampler `json:"samplers,omitempty"`
}

// wireTexture is a harness.TextureBinding as worker.mjs takes it: Kind is
// "sampled" or "storage", SampleType the layout's (resolved), Data each
// mip level's texels (base64 in JSON).
type wireTexture struct {
	Group      uint32   `json:"group"`
	Binding    uint32   `json:"binding"`
	Kind       string   `json:"kind"`
	View       string   `json:"view"`
	Format     string   `json:"format"`
	SampleType string   `json:"sampleType,omitempty"`
	Access     string   `json:"access,omitempty"`
	Size       []uint32 `json:"size"` // level 0: width, height, depth or layers
	MipLevels  uint32   `json:"mipLevels"`
	// SampleCount is 1, or 4 for a multisampled texture (uploaded by a
	// render pass, as a depth32float one: harness/render_upload.go).
	SampleCount uint32     `json:"sampleCount"`
	TexelSize   int        `json:"texelSize"`
	Levels      [][]uint32 `json:"levels"` // per level: width, height, depth or layers
	Data        [][]byte   `json:"data"`
	ReadBack    bool       `json:"readBack"`
}

// wireSampler is a harness.SamplerBinding as worker.mjs takes it (a
// GPUSamplerDescriptor and the layout's sampler binding type).
type wireSampler struct {
	Group        uint32  `json:"group"`
	Binding      uint32  `json:"binding"`
	Type         string  `json:"type"`
	AddressModeU string  `json:"addressModeU"`
	AddressModeV string  `json:"addressModeV"`
	AddressModeW string  `json:"addressModeW"`
	MagFilter    string  `json:"magFilter"`
	MinFilter    string  `json:"minFilter"`
	MipmapFilter string  `json:"mipmapFilter"`
	LodMinClamp  float32 `json:"lodMinClamp"`
	LodMaxClamp  float32 `json:"lodMaxClamp"`
	Compare      string  `json:"compare,omitempty"`
}

// wireTextures converts a dispatch's textures and samplers for the
// worker and returns the bytes its written storage textures add to the
// output.
func wireTextures(job harness.Dispatch) ([]wireTexture, []wireSampler, int) {
	var ts []wireTexture
	n := 0
	for _, t := range job.Textures {
		levels := max(t.MipLevels, 1)
		w := wireTexture{Group: t.Group, Binding: t.Binding, Kind: "sampled", View: t.View, Format: t.Format,
			Size: []uint32{max(t.Width, 1), max(t.Height, 1), max(t.DepthOrLayers, 1)}, MipLevels: levels, SampleCount: max(t.SampleCount, 1),
			TexelSize: harness.TexelSize(t.Format), ReadBack: t.Written()}
		if t.Kind == harness.TextureStorage {
			w.Kind, w.Access = "storage", t.Access
		} else {
			w.SampleType = t.LayoutSampleType()
		}
		for l := uint32(0); l < levels; l++ {
			lw, lh, ld := t.LevelSize(l)
			w.Levels = append(w.Levels, []uint32{lw, lh, ld})
			data := make([]byte, t.LevelBytes(l)*int(max(t.SampleCount, 1)))
			if int(l) < len(t.Data) {
				copy(data, t.Data[l])
			}
			w.Data = append(w.Data, data)
		}
		n += t.ReadBackSize()
		ts = append(ts, w)
	}
	var ss []wireSampler
	for _, s := range job.Samplers {
		def := func(v, d string) string {
			if v == "" {
				return d
			}
			return v
		}
		lo, hi := s.LodMinClamp, s.LodMaxClamp
		if lo == 0 && hi == 0 {
			hi = 32
		}
		ss = append(ss, wireSampler{Group: s.Group, Binding: s.Binding, Type: s.LayoutType(),
			AddressModeU: def(s.AddressModeU, "clamp-to-edge"), AddressModeV: def(s.AddressModeV, "clamp-to-edge"), AddressModeW: def(s.AddressModeW, "clamp-to-edge"),
			MagFilter: def(s.MagFilter, "nearest"), MinFilter: def(s.MinFilter, "nearest"), MipmapFilter: def(s.MipmapFilter, "nearest"),
			LodMinClamp: lo, LodMaxClamp: hi, Compare: s.Compare})
	}
	return ts, ss, n
}

// wireDraw is a harness.Draw (its defaults filled in) as worker.mjs takes
// it: the vertex buffers' layouts in GPUVertexBufferLayout's terms.
type wireDraw struct {
	VertexBuffers []wireVertexBuffer `json:"vertexBuffers"`
	Index         *wireIndex         `json:"index,omitempty"`
	Count         uint32             `json:"count"`
	InstanceCount uint32             `json:"instanceCount"`
	FirstVertex   uint32             `json:"firstVertex"`
	FirstIndex    uint32             `json:"firstIndex"`
	BaseVertex    int32              `json:"baseVertex"`
	FirstInstance uint32             `json:"firstInstance"`
	Topology      string             `json:"topology"`
	CullMode      string             `json:"cullMode"`
	FrontFace     string             `json:"frontFace"`
}

type wireVertexBuffer struct {
	Data        []byte          `json:"data"` // base64 in JSON
	ArrayStride uint64          `json:"arrayStride"`
	StepMode    string          `json:"stepMode"`
	Attributes  []wireAttribute `json:"attributes"`
}

// wireAttribute is a harness.VertexAttribute as GPUVertexAttribute.
type wireAttribute struct {
	Format         string `json:"format"`
	Offset         uint64 `json:"offset"`
	ShaderLocation uint32 `json:"shaderLocation"`
}

type wireIndex struct {
	Format string `json:"format"`
	Data   []byte `json:"data"` // base64 in JSON
}

// toWireDraw converts job's effective draw.
func toWireDraw(job harness.Dispatch) (*wireDraw, [][4]float64) {
	d := job.EffectiveDraw()
	w := &wireDraw{Count: d.Count, InstanceCount: d.InstanceCount, FirstVertex: d.FirstVertex, FirstIndex: d.FirstIndex,
		BaseVertex: d.BaseVertex, FirstInstance: d.FirstInstance, Topology: d.Topology, CullMode: d.CullMode, FrontFace: d.FrontFace,
		VertexBuffers: []wireVertexBuffer{}}
	for _, b := range d.VertexBuffers {
		vb := wireVertexBuffer{Data: b.Data, ArrayStride: b.Stride, StepMode: b.StepMode, Attributes: []wireAttribute{}}
		for _, a := range b.Attributes {
			vb.Attributes = append(vb.Attributes, wireAttribute(a))
		}
		w.VertexBuffers = append(w.VertexBuffers, vb)
	}
	if d.Index != nil {
		w.Index = &wireIndex{Format: d.Index.Format, Data: d.Index.Data}
	}
	return w, d.Clear
}

// wireBinding is a harness.BufferBinding as worker.mjs takes it: Kind is
// WebGPU's GPUBufferBindingType.
type wireBinding struct {
	Group   uint32 `json:"group"`
	Binding uint32 `json:"binding"`
	Kind    string `json:"kind"`
	Data    []byte `json:"data"` // base64 in JSON
}

// bindingTypes maps the binding kinds of a Buffers dispatch to WebGPU's
// GPUBufferBindingType (WebGPU §8.1.1 "Bind Group Layout Creation").
var bindingTypes = map[harness.BindingKind]string{
	harness.BindingReadOnly: "read-only-storage",
	harness.BindingStorage:  "storage",
	harness.BindingUniform:  "uniform",
}

// reply is worker.mjs's answer to a request.
type reply struct {
	ID       uint64    `json:"id"`
	Output   []byte    `json:"output"`   // base64 in JSON
	Compiled []*string `json:"compiled"` // per Compile text: nil, or Tint's message
	Error    *struct {
		Kind    string `json:"kind"` // "compile", "device", "unsupported" or "protocol"
		Stage   string `json:"stage"`
		Op      string `json:"op"`
		Message string `json:"message"`
		Broken  bool   `json:"broken"`
	} `json:"error"`
}

// Run compiles k (WGSL only) with Tint, runs job on the device and returns
// its output bytes, as harness.Device.Run does: each Run creates and
// destroys its own shader module, pipeline, buffers and bind groups.
//
// A kernel ABI dispatch dispatches ceil(Invocations/64) workgroups along x
// and returns the output buffer's OutputSize bytes. A kernel in the
// fragment stage (k.Stage harness.FragmentStage) is drawn as
// harness.Device.Run draws it, after harness.CheckFragment and
// harness.CheckDraw (the device's vertex limits; Dawn and Deno take every
// GPUVertexFormat): under the kernel ABI its two buffers, or — a render
// pipeline as written (job.AsWritten) — the module's buffers, textures
// and samplers, visible to the vertex stage too when k has its own
// (k.VertexWGSL; VertexSPIRV is ErrNoSPIRV); job.EffectiveDraw's draw
// (by default one full-screen triangle of harness.VertexWGSL) over
// job.Target; the output (or every BindingStorage buffer's bytes), then
// the attachments' texels. A device whose fragment stage has no
// writable storage buffers returns a *harness.UnsupportedError for the
// kernel ABI's. A dispatch of a module as
// written (job.Buffers; ARCHITECTURE.md "Entry points as written") is
// checked by harness.CheckBindings against the device's limits, gets a
// bind group layout per group (empty ones for groups without buffers) and
// one buffer per binding holding its Data, dispatches job.Workgroups, and
// returns the final bytes of every BindingStorage buffer, each exactly
// len(Data), concatenated in Buffers order: byte for byte what
// harness.Device.Run returns for the same dispatch. An empty Buffers runs
// the entry point without bindings and returns no bytes.
//
// Errors: *harness.CompileError when Dawn rejects the module (Stage
// "shader-module", Tint's diagnostics with the quoted source) or the
// pipeline (Stage "pipeline", e.g. a binding the shader declares that the
// dispatch lacks), the worker staying up; *harness.DeviceError when the
// bind group layouts, buffers, bind groups, textures, encoding, the device
// or the readback fail, the worker died (Op "worker") or could not be
// restarted (Op "open"), or ctx ended (Op "wait", wrapping ctx.Err());
// *TimeoutError when the dispatch did not compile or run within its limit
// (SetTimeouts; the worker is killed);
// ErrNoSPIRV for a SPIR-V kernel; other errors for an invalid Kernel or
// Dispatch, a closed Device, or a ctx already done on entry (ctx.Err()).
//
// When ctx ends before the reply, Run kills the worker process and returns
// at once; the next Run starts a new worker. A worker that died or lost its
// device is replaced the same way, so the Device stays usable.
func (d *Device) Run(ctx context.Context, k harness.Kernel, job harness.Dispatch) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return nil, errors.New("dawn: Run on a closed Device")
	}
	if err := d.checkRun(k, job); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	req := request{WGSL: k.WGSL, EntryPoint: k.EntryPoint}
	want := job.OutputSize
	switch {
	case k.Stage == harness.FragmentStage:
		req.Stage, req.Vertex, req.VertexEntryPoint, req.Target, req.Attachments = string(k.Stage), harness.VertexWGSL, "gpudiff_vertex", job.Target, job.Attachments
		if k.UserVertex() {
			req.Vertex, req.VertexEntryPoint, req.VertexVisible = k.VertexWGSL, k.VertexEntryPoint, true
		}
		req.Draw, req.Clear = toWireDraw(job)
		if job.AsWritten(k) {
			// Its buffers, textures and samplers (written storage
			// textures are refused by the case model).
			req.Entry = true
			req.Textures, req.Samplers, _ = wireTextures(job)
			req.Bindings = make([]wireBinding, len(job.Buffers))
			for i, b := range job.Buffers {
				req.Bindings[i] = wireBinding{Group: b.Group, Binding: b.Binding, Kind: bindingTypes[b.Kind], Data: b.Data}
				if b.Kind == harness.BindingStorage {
					want += len(b.Data)
				}
			}
		} else {
			req.Input, req.OutputSize, req.Invocations = job.Input, job.OutputSize, job.Invocations
		}
		for _, f := range job.Attachments {
			want += int(job.Target[0]*job.Target[1]) * f.TexelSize()
		}
	case job.Buffers != nil || job.Workgroups != [3]uint32{} || job.Textures != nil || job.Samplers != nil:
		wg := job.Workgroups
		req.Workgroups = &wg
		req.Bindings = make([]wireBinding, len(job.Buffers))
		var texBytes int
		req.Textures, req.Samplers, texBytes = wireTextures(job)
		want = texBytes
		for i, b := range job.Buffers {
			req.Bindings[i] = wireBinding{Group: b.Group, Binding: b.Binding, Kind: bindingTypes[b.Kind], Data: b.Data}
			if b.Kind == harness.BindingStorage {
				want += len(b.Data)
			}
		}
	default:
		req.Input, req.OutputSize, req.Invocations = job.Input, job.OutputSize, job.Invocations
	}
	rep, err := d.call(ctx, req)
	if err != nil {
		return nil, err
	}
	if len(rep.Output) != want {
		return nil, d.fail("readback", fmt.Sprintf("the worker returned %d bytes, want %d", len(rep.Output), want), nil)
	}
	if rep.Output == nil {
		rep.Output = []byte{}
	}
	return rep.Output, nil
}

// call sends req (its ID assigned here) to the worker, starting one if
// there is none, and returns the reply. Worker faults (death, ctx ending,
// replies out of turn) are *harness.DeviceError and leave no worker, so
// the next call starts one; an error the worker reports is returned as
// *harness.CompileError or *harness.DeviceError. d.mu is held.
func (d *Device) call(ctx context.Context, r request) (*reply, error) {
	if d.w == nil {
		sctx, cancel := context.WithTimeout(ctx, startTimeout)
		err := d.start(sctx)
		cancel()
		if err != nil {
			return nil, err
		}
	}
	d.nextID++
	r.ID = d.nextID
	req, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	var rep reply
	err = d.exchange(ctx, append(req, '\n'), &rep)
	var te *TimeoutError
	switch {
	case errors.As(err, &te):
		d.w.kill()
		d.w = nil
		return nil, err
	case err == errDied:
		msg := d.w.postMortem()
		d.w = nil
		return nil, d.fail("worker", msg, nil)
	case err != nil && ctx.Err() != nil:
		pid := d.w.pid()
		d.w.kill()
		d.w = nil
		return nil, d.fail("wait", fmt.Sprintf("no result when the context ended (%v): the worker (pid %d) was killed; the next Run starts a new one", ctx.Err(), pid), ctx.Err())
	case err != nil:
		d.w.kill()
		d.w = nil
		return nil, d.fail("worker", err.Error(), err)
	case rep.ID != d.nextID:
		d.w.kill()
		d.w = nil
		return nil, d.fail("worker", fmt.Sprintf("reply to request %d while waiting for %d", rep.ID, d.nextID), nil)
	}
	if e := rep.Error; e != nil {
		switch e.Kind {
		case "compile":
			return nil, &harness.CompileError{Stage: e.Stage, Message: e.Message}
		case "unsupported":
			return nil, &harness.UnsupportedError{Adapter: d.info.Name, Reason: e.Message}
		case "device":
			if e.Broken { // the worker exits after a lost device
				d.w.stop()
				d.w = nil
			}
			return nil, d.fail(e.Op, e.Message, nil)
		}
		d.w.kill()
		d.w = nil
		return nil, d.fail("worker", e.Kind+": "+e.Message, nil)
	}
	return &rep, nil
}

// checkRun validates k and job against the ABI and the adapter's limits.
func (d *Device) checkRun(k harness.Kernel, job harness.Dispatch) error {
	switch {
	case k.EntryPoint == "":
		return errors.New("dawn: kernel has no entry point name")
	case (k.WGSL == "") == (len(k.SPIRV) == 0):
		return errors.New("dawn: kernel must have exactly one of WGSL and SPIRV")
	case len(k.SPIRV) > 0 || len(k.VertexSPIRV) > 0:
		return ErrNoSPIRV
	case job.OutputSize < 0 || job.Invocations < 0:
		return fmt.Errorf("dawn: negative dispatch size (output %d bytes, %d invocations)", job.OutputSize, job.Invocations)
	case k.Stage != "" && k.Stage != harness.ComputeStage && k.Stage != harness.FragmentStage:
		return fmt.Errorf("dawn: unknown shader stage %q", k.Stage)
	}
	l := d.wire.Limits
	if k.Stage != harness.FragmentStage && (job.Buffers != nil || job.Workgroups != [3]uint32{} || job.Textures != nil || job.Samplers != nil) {
		return harness.CheckBindings(job, d.info.Name, l.MaxComputeWorkgroupsPerDimension,
			min(l.MaxStorageBufferBindingSize, l.MaxBufferSize), min(l.MaxUniformBufferBindingSize, l.MaxBufferSize), l.MaxBindGroups)
	}
	maxBinding := min(l.MaxStorageBufferBindingSize, l.MaxBufferSize)
	if k.Stage == harness.FragmentStage {
		// The worker's device has WebGPU's default texture and attachment
		// limits (it requests only the buffer limits).
		if err := harness.CheckFragment(job, d.info.Name, defaultMaxTextureDimension2D, harness.DefaultMaxColorAttachments,
			harness.DefaultMaxColorAttachmentBytesPerSample, maxBinding); err != nil {
			return err
		}
		// Dawn (npm webgpu 0.6.2) and Deno (wgpu 29) take every
		// GPUVertexFormat (TestDrawVertexFormats).
		return harness.CheckDraw(k, job, d.info.Name, harness.DrawLimits{
			MaxVertexBuffers: l.MaxVertexBuffers, MaxVertexAttributes: l.MaxVertexAttributes,
			MaxVertexBufferArrayStride: l.MaxVertexBufferArrayStride, MaxBufferSize: l.MaxBufferSize})
	}
	switch {
	case job.Target != [2]uint32{} || job.Attachments != nil || job.Draw != nil:
		return errors.New("dawn: a compute dispatch has no Target, Attachments or Draw")
	case k.VertexWGSL != "" || k.VertexEntryPoint != "":
		return errors.New("dawn: a compute dispatch has no vertex stage")
	}
	for _, n := range []int{len(job.Input), job.OutputSize} {
		if size := uint64(max(4, (n+3)&^3)); size > maxBinding {
			return fmt.Errorf("dawn: buffer of %d bytes exceeds %s's storage binding limit of %d bytes", n, d.info.Name, maxBinding)
		}
	}
	wg := (job.Invocations + harness.WorkgroupSize - 1) / harness.WorkgroupSize
	if uint64(wg) > l.MaxComputeWorkgroupsPerDimension {
		return fmt.Errorf("dawn: %d invocations need %d workgroups, over %s's limit of %d",
			job.Invocations, wg, d.info.Name, l.MaxComputeWorkgroupsPerDimension)
	}
	return nil
}

// defaultMaxTextureDimension2D is WebGPU's default maxTextureDimension2D
// (WebGPU #limits), which the worker's device has.
const defaultMaxTextureDimension2D = 8192

// Close ends the worker process: it closes the worker's stdin, which makes
// it destroy the device and exit, and kills it if it has not exited within
// 5 s. It is safe to call more than once; the Device cannot be used
// afterwards.
func (d *Device) Close() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	d.closed = true
	if d.w != nil {
		d.w.stop()
		d.w = nil
	}
}
