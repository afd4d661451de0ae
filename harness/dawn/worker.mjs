// gpudiff's JavaScript WebGPU worker: runs compute kernels and draws on one
// adapter of a WebGPU implementation that lives in a JavaScript runtime, on
// behalf of the Go package harness/dawn. Two hosts run it:
//
//   - Dawn, through node and the npm package `webgpu` (dawn.node):
//     node --expose-gc --input-type=module -e <this file> list [backend...]
//     node --expose-gc --input-type=module -e <this file> serve <backend> <adapter-name> <feature-level> [all-features]
//     with GPUDIFF_DAWN_WEBGPU set to the path of the package's index.js;
//   - Deno's own WebGPU (wgpu-core and naga), navigator.gpu:
//     deno run --allow-all --no-config --v8-flags=--expose-gc <this file> list|serve ...
//     Deno has no adapter enumeration and no backend choice in its API: the
//     Go side starts one process per driver it wants, selecting the backend
//     with DENO_WEBGPU_BACKEND (vulkan or gl) and the Vulkan driver with
//     VK_ICD_FILENAMES, so list reports at most one adapter and the
//     backend and adapter-name arguments of serve only describe it.
//
// It
// reads requests from stdin and writes replies to file descriptor 3, one JSON
// object per line each way; stdout and stderr are left to Dawn and the
// drivers, which print warnings there.
//
// list [backend...]: replies {"adapters": [adapter...]} once and exits;
// with backends (Dawn's names: vulkan, opengl, ...), of those only.
// serve: opens a device on the named adapter and replies {"ready": adapter}
// (or {"fatal": message} and exits), then answers each request
//
//	{"id", "wgsl", "entryPoint", "input" (base64), "outputSize", "invocations"}
//
// with {"id", "output" (base64)} or {"id", "error": {"kind", "stage", "op",
// "message", "broken"}}: kind "compile" (stage "shader-module" or
// "pipeline", the message is Tint's or Dawn's own), "device" (op "buffer",
// "bind-group", "texture", "encode", "readback" or "device") or
// "unsupported" (the device cannot run the request at all: a fragment
// kernel where the fragment stage has no writable storage buffers, a
// bind group layout or texture of the module that the device refuses). A
// broken error means the device is lost: the worker exits after replying.
// It exits when stdin closes.
//
// A request with "stage": "fragment" also has "vertex" (the WGSL of the
// vertex stage: harness.VertexWGSL's gpudiff_vertex, or the kernel's
// own), "vertexEntryPoint", "target" [width, height], "attachments"
// [format...], "clear" [[r, g, b, a]...] (each attachment's clear value)
// and "draw" (harness.Draw with its defaults filled in: "vertexBuffers"
// [{"data" (base64), "arrayStride", "stepMode", "attributes"
// [GPUVertexAttribute...]}...], "index" {"format", "data"} or absent,
// "count", "instanceCount", "firstVertex", "firstIndex", "baseVertex",
// "firstInstance", "topology", "cullMode", "frontFace"; absent: one
// full-screen triangle). Under the kernel ABI its two buffers are bound
// to the fragment stage and the output is the output buffer's bytes
// followed by each attachment's texels, row by row, without row padding
// (harness.Dispatch.Attachments). With "entry": true it is a render
// pipeline as written: its "bindings", "textures" and "samplers" (as
// runBindings takes them) are bound, visible to the vertex stage too with
// "vertexVisible" (but read_write storage buffers and written storage
// textures), and the output is every "storage" binding's bytes, then the
// attachments' texels (harness/render.go's runFragment). A strip drawn
// indexed gets stripIndexFormat = the index format (primitive restart).
//
// A request with "workgroups" runs an entry point as written (ARCHITECTURE.md
// "Entry points as written"; the Go side's harness.Dispatch.Buffers):
//
//	{"id", "wgsl", "entryPoint", "workgroups": [x, y, z],
//	 "bindings": [{"group", "binding", "kind", "data" (base64)}...]}
//
// kind is the GPUBufferBindingType ("read-only-storage", "storage" or
// "uniform"). The worker creates one bind group layout per group up to the
// highest (groups without bindings get an empty one), the pipeline with
// that explicit layout, one buffer per binding of len(data) rounded up to
// a multiple of 4 (at least 4) holding data, dispatches x×y×z workgroups,
// copies every "storage" (read_write) buffer into one readback buffer at
// 4-aligned offsets, and replies {"id", "output"} with each of those
// buffers' first len(data) bytes, concatenated in request order: the bytes
// harness.Device.Run returns for the same dispatch (harness/bindings.go
// runBindings). The bindings may be empty (an entry point without any).
// Errors as above; op "bind-group" also for the layouts.
//
// A compile-only request {"id", "compile": [wgsl...]} creates a shader
// module from each text (Tint parses, resolves and validates it) and nothing
// else; the reply is {"id", "compiled": [null or Tint's message, ...]}, in
// order, or an error as above. A device is requested with shader-f16 and
// subgroups where the adapter has them (DEVICE_FEATURES); with
// all-features, with every feature the adapter has (so enable f16,
// subgroups, dual_source_blending, ... are allowed where the adapter
// offers them).
//
// Each adapter of list's reply and ready's carries its "features" (sorted
// GPUFeatureName strings) and "subgroupMinSize"/"subgroupMaxSize" (0
// where GPUAdapterInfo has none).
//
// Kernel ABI (DESIGN.md): @group(0) @binding(0) read-only storage input,
// @binding(1) read-write storage output, @workgroup_size(64), dispatched as
// ceil(invocations/64) workgroups along x.
import fs from 'node:fs';
import readline from 'node:readline';
import { pathToFileURL } from 'node:url';

const WORKGROUP_SIZE = 64;

// DEVICE_FEATURES are the features a serving device requests where the
// adapter has them (harness.FeatureShaderF16, harness.FeatureSubgroups):
// a module with `enable f16;` or `enable subgroups;` compiles only on a
// device created with the feature (WebGPU #dom-gpuadapter-requestdevice,
// WGSL #enable-extensions-sec).
const DEVICE_FEATURES = ['shader-f16', 'subgroups'];

// DENO is set when Deno runs this file (its WebGPU is navigator.gpu).
const DENO = typeof Deno !== 'undefined';

// Deno's node:fs does not reach raw file descriptors, so it writes
// replies through /dev/fd/3.
const replies = DENO ? Deno.openSync('/dev/fd/3', { write: true }) : null;

function send(msg) {
  const line = Buffer.from(JSON.stringify(msg) + '\n');
  for (let off = 0; off < line.length;) {
    try {
      off += DENO ? replies.writeSync(line.subarray(off)) : fs.writeSync(3, line, off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

function errorText(e) {
  return e && e.message !== undefined ? String(e.message) : String(e);
}

// dawnMessage trims what Dawn appends to a message about where it came from
// (" - While calling [Device].CreateShaderModule(...)." and blank lines),
// leaving the stack's own text: for WGSL, Tint's diagnostics with the quoted
// source.
function dawnMessage(msg) {
  return msg.split('\n')
    .filter((l) => !/^\s*- While /.test(l))
    .join('\n')
    .replace(/\s+$/, '');
}

// create(options) is dawn.node's GPU with the given Dawn options; Deno's
// navigator.gpu takes none (its environment chose the driver).
let create = () => navigator.gpu;
if (!DENO) {
  let webgpu;
  try {
    webgpu = await import(pathToFileURL(process.env.GPUDIFF_DAWN_WEBGPU).href);
  } catch (e) {
    send({ fatal: `cannot load the npm package webgpu from ${process.env.GPUDIFF_DAWN_WEBGPU}: ${errorText(e)}` });
    process.exit(1);
  }
  create = webgpu.create;
  Object.assign(globalThis, webgpu.globals);
}

// The Dawn backends worth asking for, per platform.
const BACKENDS = {
  linux: ['vulkan', 'opengl', 'opengles'],
  darwin: ['metal'],
  win32: ['d3d12', 'd3d11', 'vulkan'],
}[process.platform] ?? ['vulkan', 'metal', 'd3d12', 'd3d11', 'opengl', 'opengles'];

// requestAdapter asks an instance for an adapter at full WebGPU (core) and,
// failing that, in compatibility mode, which is all Dawn's OpenGL and
// OpenGL ES backends offer.
async function requestAdapter(gpu) {
  for (const featureLevel of ['core', 'compatibility']) {
    const a = await gpu.requestAdapter({ featureLevel });
    if (a) return { adapter: a, featureLevel };
  }
  return null;
}

// adapterNames lists the names of the adapters Dawn finds for backend. Dawn
// has no enumeration API; dawn.node lists every adapter of the backend in the
// error for an adapter name that matches none (its README's documented way).
async function adapterNames(backend) {
  const gpu = create([`backend=${backend}`, 'adapter=\u0001gpudiff-no-such-adapter']);
  try {
    await gpu.requestAdapter({ featureLevel: 'compatibility' });
  } catch (e) {
    const names = [];
    for (const m of errorText(e).matchAll(/^ \* backend: '([^']*)', name: '(.*)'$/gm)) {
      if (m[1] === backend) names.push(m[2]);
    }
    return names;
  }
  return [];
}

// describe reports an adapter, its features and subgroup sizes
// (GPUAdapterInfo.subgroupMinSize/subgroupMaxSize: undefined where the
// implementation has none) and the limits gpudiff checks dispatches
// against: the adapter's own, or a device's (limits).
function describe(backend, name, found, limits = found.adapter.limits) {
  const { adapter, featureLevel } = found;
  const i = adapter.info;
  return {
    backend,
    name,
    vendor: i.vendor,
    architecture: i.architecture,
    device: i.device,
    description: i.description,
    isFallbackAdapter: !!i.isFallbackAdapter,
    featureLevel,
    features: [...adapter.features].sort(),
    subgroupMinSize: i.subgroupMinSize ?? 0,
    subgroupMaxSize: i.subgroupMaxSize ?? 0,
    limits: {
      maxStorageBuffersPerShaderStage: limits.maxStorageBuffersPerShaderStage,
      maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
      maxBufferSize: limits.maxBufferSize,
      maxComputeWorkgroupsPerDimension: limits.maxComputeWorkgroupsPerDimension,
      maxUniformBufferBindingSize: limits.maxUniformBufferBindingSize,
      maxBindGroups: limits.maxBindGroups,
      maxVertexBuffers: limits.maxVertexBuffers,
      maxVertexAttributes: limits.maxVertexAttributes,
      maxVertexBufferArrayStride: limits.maxVertexBufferArrayStride,
    },
  };
}

// listDeno reports the one adapter Deno's environment gives, if any.
async function listDeno() {
  const backend = process.env.DENO_WEBGPU_BACKEND || 'vulkan';
  let found = null;
  try {
    found = await requestAdapter(navigator.gpu);
  } catch {}
  send({ adapters: found ? [describe(backend, '', found)] : [] });
  process.exit(0);
}

// list reports the adapters of backends (all of the platform's when
// none is given: `list vulkan` lists Dawn's Vulkan adapters only).
async function list(backends) {
  if (DENO) return listDeno();
  const out = [];
  for (const backend of backends.length > 0 ? backends : BACKENDS) {
    let names;
    try {
      names = await adapterNames(backend);
    } catch {
      continue;
    }
    if (names.length === 0) {
      // The listing was empty or not understood: take the default adapter.
      let found = null;
      try {
        found = await requestAdapter(create([`backend=${backend}`]));
      } catch {}
      if (found) out.push(describe(backend, '', found));
      continue;
    }
    for (const name of new Set(names)) {
      let found = null;
      try {
        found = await requestAdapter(create([`backend=${backend}`, `adapter=${name}`]));
      } catch {}
      if (found) out.push(describe(backend, name, found));
    }
  }
  send({ adapters: out });
  process.exit(0);
}

async function serve(backend, name, featureLevel, allFeatures) {
  const opts = [`backend=${backend}`];
  if (name) opts.push(`adapter=${name}`);
  const gpu = create(opts); // Deno: navigator.gpu (the process's one driver)
  let adapter;
  try {
    adapter = await gpu.requestAdapter({ featureLevel });
  } catch (e) {
    send({ fatal: `requestAdapter: ${errorText(e)}` });
    process.exit(1);
  }
  if (!adapter) {
    send({ fatal: `no ${featureLevel} adapter named ${JSON.stringify(name)} on backend ${backend}` });
    process.exit(1);
  }
  let device;
  try {
    // The adapter's own buffer and binding limits, as harness.Open
    // requests (wgpu's device gets all of the adapter's limits).
    const requiredLimits = {};
    for (const l of ['maxStorageBufferBindingSize', 'maxBufferSize', 'maxUniformBufferBindingSize', 'maxBindGroups',
      'maxStorageBuffersPerShaderStage', 'maxUniformBuffersPerShaderStage', 'maxComputeWorkgroupStorageSize',
      'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupSizeX', 'maxComputeWorkgroupSizeY',
      'maxComputeWorkgroupSizeZ', 'maxComputeWorkgroupsPerDimension',
      'maxVertexBuffers', 'maxVertexAttributes', 'maxVertexBufferArrayStride',
      // Compatibility mode's vertex-stage storage (0 by default; Dawn's GL
      // backends offer 16). The fragment stage's stay at their defaults:
      // the kernel ABI's fragment-stage storage writes are refused there
      // (fragmentLayout).
      'maxStorageBuffersInVertexStage', 'maxStorageTexturesInVertexStage']) {
      if (adapter.limits[l] !== undefined) requiredLimits[l] = adapter.limits[l];
    }
    device = await adapter.requestDevice({
      requiredFeatures: allFeatures ? [...adapter.features] : DEVICE_FEATURES.filter((f) => adapter.features.has(f)),
      requiredLimits,
    });
  } catch (e) {
    send({ fatal: `requestDevice: ${errorText(e)}` });
    process.exit(1);
  }
  const info = describe(backend, name, { adapter, featureLevel }, device.limits);

  let lost = null; // the loss message once the device is lost
  device.lost.then((l) => { lost = `device lost (${l.reason}): ${l.message}`; });
  let uncaptured = [];
  device.addEventListener('uncapturederror', (ev) => { uncaptured.push(errorText(ev.error)); });

  const storage = (binding, type) => ({ binding, visibility: GPUShaderStage.COMPUTE, buffer: { type } });
  const bgl = device.createBindGroupLayout({
    label: 'gpudiff kernel ABI',
    entries: [storage(0, 'read-only-storage'), storage(1, 'storage')],
  });
  const layout = device.createPipelineLayout({ label: 'gpudiff kernel ABI', bindGroupLayouts: [bgl] });
  // The fragment stage's layouts, made on first use: a device whose
  // fragment stage has no writable storage buffers (compatibility mode's
  // maxStorageBuffersInFragmentStage = 0) refuses them, remembered.
  let frag = null;
  send({ ready: info });

  const scoped = async (filters, f) => {
    for (const filter of filters) device.pushErrorScope(filter);
    let value, thrown;
    try {
      value = f();
    } catch (e) {
      thrown = e;
    }
    let err = null;
    for (let i = 0; i < filters.length; i++) {
      const e = await device.popErrorScope();
      err = err ?? e;
    }
    if (err && typeof err.message !== 'string') {
      // Deno's wgpu-core reports some errors (an internal error of its GL
      // backend) without a message: say what it is, never crash on it.
      err = { message: `${err.constructor?.name ?? typeof err} without a message (${String(err)})` };
    }
    if (thrown) throw thrown;
    return { value, err };
  };
  const compile = (stage, message) => ({ kind: 'compile', stage, message: dawnMessage(message) });
  const failure = (op, message, broken = false) => ({ kind: 'device', op, message: dawnMessage(message), broken });
  // unsupported is the reply for bindings the device refuses: the layout is
  // the module's own bindings, so the adapter lacks what they need (a
  // storage format with this access, a binding in compatibility mode), as
  // the wgpu harness reports it (harness.UnsupportedError).
  const unsupported = (stage, message) => ({ kind: 'unsupported', message: `the module's bindings are not available to ${stage}: ${dawnMessage(message)}` });
  // unsupportedTextures is the reply for textures (or samplers) of the
  // module the device cannot create: their sizes and formats passed the
  // harness's own checks, so it is the adapter's capability (a cube array
  // texture in compatibility mode, a storage format).
  const unsupportedTextures = (message) => ({ kind: 'unsupported', message: `the adapter cannot create the module's textures: ${dawnMessage(message)}` });
  const size = (n) => Math.max(4, (n + 3) & ~3);

  // compiled ends the compile phase of request req (harness/dawn times a
  // dispatch's compile phase and its run apart, each with its own limit):
  // a progress line for req's id, written before its reply. A compute
  // dispatch on Vulkan first runs its pipeline on zero workgroups with its
  // bind groups and waits for the queue: lavapipe compiles a pipeline at
  // its first dispatch, not when it is created (harness/phase.go).
  async function compiled(req, pipe, groups) {
    if (pipe && backend === 'vulkan') {
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipe);
      groups.forEach((group, g) => pass.setBindGroup(g, group));
      pass.dispatchWorkgroups(0, 1, 1);
      pass.end();
      device.queue.submit([encoder.finish()]);
      await device.queue.onSubmittedWorkDone();
    }
    send({ id: req.id, progress: 'compiled' });
  }

  async function run(req) {
    if (lost) return failure('device', lost, true);
    uncaptured = [];

    const mod = await scoped(['internal', 'validation'], () => device.createShaderModule({ code: req.wgsl }));
    if (mod.err) return compile('shader-module', mod.err.message);
    const pipe = await scoped(['internal', 'validation'], () => device.createComputePipeline({
      layout, compute: { module: mod.value, entryPoint: req.entryPoint },
    }));
    if (pipe.err) return compile('pipeline', pipe.err.message);
    return dispatch(req, pipe.value, bgl, (pass) => {
      pass.dispatchWorkgroups(Math.ceil(req.invocations / WORKGROUP_SIZE), 1, 1);
    });
  }

  async function fragmentLayout() {
    if (frag) return frag;
    const storage = (binding, type) => ({ binding, visibility: GPUShaderStage.FRAGMENT, buffer: { type } });
    const l = await scoped(['validation'], () => device.createBindGroupLayout({
      label: 'gpudiff kernel ABI (fragment)',
      entries: [storage(0, 'read-only-storage'), storage(1, 'storage')],
    }));
    if (l.err) {
      frag = { err: `no writable storage buffers in the fragment stage (the kernel ABI's output buffer): ${dawnMessage(l.err.message)}` };
      return frag;
    }
    frag = { bgl: l.value, layout: device.createPipelineLayout({ label: 'gpudiff kernel ABI (fragment)', bindGroupLayouts: [l.value] }) };
    return frag;
  }

  const texelSize = { r32uint: 4, r32sint: 4, r32float: 4, rg32uint: 8, rg32sint: 8, rg32float: 8, rgba32uint: 16, rgba32sint: 16, rgba32float: 16, rgba8unorm: 4 };

  async function runFragment(req) {
    // The textures and buffers a draw makes are destroyed when it
    // returns, whichever way.
    const owned = [];
    try {
      return await drawFragment(req, owned);
    } finally {
      for (const t of owned) t.destroy();
    }
  }

  // Textures no copy writes (harness/render_upload.go, the same passes):
  // a multisampled texture and a depth32float one. Their texels go into a
  // source 2d-array by writeTexture (one layer per sample, or the
  // texture's levels and layers as r32float), then a full-target triangle
  // per subresource writes them: sample s with the pipeline's sample mask
  // 1 << s (compatibility mode has no @builtin(sample_index)) to the
  // colour target, or @builtin(frag_depth) to the depth attachment
  // (depthCompare 'always'). The shaders index with i32, as the Go
  // harness's do. The source texture goes to owned (destroyed after the
  // run).
  const renderUploaded = (t) => t.sampleCount > 1 || t.format === 'depth32float';
  // bindingView is a sampled texture's textureBindingViewDimension, the
  // view its binding uses: WebGPU's compatibility mode (Dawn's GL and GLES
  // backends) binds a texture only as the view dimension it was created
  // for, and takes '2d' for a one-layer 2d texture, so a one-layer
  // texture_2d_array (or a cube) would not bind there.
  // Dawn checks storage texture views against it too, so a storage
  // texture_storage_2d_array of one layer needs '2d-array' here as well.
  const bindingView = (t) => ({ textureBindingViewDimension: t.view });
  // makeTexture creates binding texture t with its usage (plus extra,
  // unless a render pass uploads it), fills it with t's texels, puts it in
  // owned (destroyed after the run), and returns it with the view its
  // binding uses.
  const makeTexture = (t, extra, owned) => {
    const dimension = t.view === '1d' ? '1d' : t.view === '3d' ? '3d' : '2d';
    const usage = renderUploaded(t)
      ? GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING
      : GPUTextureUsage.COPY_DST | extra | (t.kind === 'storage' ? GPUTextureUsage.STORAGE_BINDING : GPUTextureUsage.TEXTURE_BINDING);
    const tex = device.createTexture({
      label: `group ${t.group} binding ${t.binding}`, size: t.size, dimension, format: t.format, mipLevelCount: t.mipLevels,
      sampleCount: t.sampleCount, usage, ...bindingView(t),
    });
    owned.push(tex);
    if (renderUploaded(t)) {
      uploadByRender(tex, t, owned);
    } else {
      t.levels.forEach((lv, l) => {
        device.queue.writeTexture({ texture: tex, mipLevel: l }, Buffer.from(t.data[l] ?? '', 'base64'),
          { bytesPerRow: lv[0] * t.texelSize, rowsPerImage: lv[1] }, lv);
      });
    }
    return { tex, view: tex.createView({ dimension: t.view, mipLevelCount: t.mipLevels }) };
  };
  // makeSampler creates binding sampler s.
  const makeSampler = (s) => {
    const desc = {
      addressModeU: s.addressModeU, addressModeV: s.addressModeV, addressModeW: s.addressModeW,
      magFilter: s.magFilter, minFilter: s.minFilter, mipmapFilter: s.mipmapFilter,
      lodMinClamp: s.lodMinClamp, lodMaxClamp: s.lodMaxClamp,
    };
    if (s.compare) desc.compare = s.compare;
    return device.createSampler(desc);
  };
  const sampledTypeOf = (f) => f.endsWith('uint') ? 'u32' : f.endsWith('sint') ? 'i32' : 'f32';
  // The vertex stage is harness.VertexWGSL's.
  const uploadVertex = `@vertex
fn gpudiff_vertex(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
  return vec4<f32>(f32(i & 1u) * 4.0 - 1.0, f32(i >> 1u) * 4.0 - 1.0, 0.0, 1.0);
}
`;
  function uploadByRender(tex, t, owned) {
    const samples = t.sampleCount;
    const depth = t.format === 'depth32float';
    const [w, h, dl] = t.size;
    const srcFormat = depth ? 'r32float' : t.format;
    const layers = depth ? dl : samples;
    const levels = depth ? t.mipLevels : 1;
    const ts = t.texelSize;
    const src = device.createTexture({
      label: 'gpudiff upload source', size: [w, h, layers], format: srcFormat, mipLevelCount: levels,
      usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.TEXTURE_BINDING,
      // compatibility mode binds a texture with the view dimension it
      // was created for (one layer would default to '2d')
      textureBindingViewDimension: '2d-array',
    });
    owned.push(src);
    for (let l = 0; l < levels; l++) {
      const [lw, lh] = t.levels[l];
      const given = Buffer.from(t.data[l] ?? '', 'base64');
      const data = new Uint8Array(lw * lh * layers * ts);
      if (depth) {
        data.set(given.subarray(0, data.length));
      } else {
        // Sample s of texel i is at (i·samples + s)·ts: layer s.
        const n = lw * lh;
        for (let i = 0; i < n; i++) {
          for (let s = 0; s < samples; s++) {
            const from = (i * samples + s) * ts;
            if (from + ts <= given.length) data.set(given.subarray(from, from + ts), (s * n + i) * ts);
          }
        }
      }
      device.queue.writeTexture({ texture: src, mipLevel: l }, data, { bytesPerRow: lw * ts, rowsPerImage: lh }, [lw, lh, layers]);
    }
    const T = sampledTypeOf(srcFormat);
    const sampleType = T === 'u32' ? 'uint' : T === 'i32' ? 'sint' : 'unfilterable-float';
    const bgl = device.createBindGroupLayout({ label: 'gpudiff upload', entries: [
      { binding: 0, visibility: GPUShaderStage.FRAGMENT, texture: { sampleType, viewDimension: '2d-array' } }] });
    const layout = device.createPipelineLayout({ label: 'gpudiff upload', bindGroupLayouts: [bgl] });
    const bg = device.createBindGroup({ layout: bgl, entries: [
      { binding: 0, resource: src.createView({ dimension: '2d-array', mipLevelCount: levels }) }] });
    const encoder = device.createCommandEncoder({ label: 'gpudiff upload' });
    const draw = (fragment, view, mask, loadOp) => {
      const module = device.createShaderModule({ code: uploadVertex + fragment });
      const desc = {
        label: 'gpudiff upload', layout,
        vertex: { module, entryPoint: 'gpudiff_vertex' },
        fragment: { module, entryPoint: 'upload', targets: depth ? [] : [{ format: t.format }] },
        primitive: { topology: 'triangle-list' },
        multisample: { count: samples, mask },
      };
      if (depth) desc.depthStencil = { format: 'depth32float', depthWriteEnabled: true, depthCompare: 'always' };
      const pipe = device.createRenderPipeline(desc);
      const pass = encoder.beginRenderPass(depth
        ? { colorAttachments: [], depthStencilAttachment: { view, depthLoadOp: loadOp, depthStoreOp: 'store', depthClearValue: 0 } }
        : { colorAttachments: [{ view, loadOp, storeOp: 'store', clearValue: [0, 0, 0, 0] }] });
      pass.setPipeline(pipe);
      pass.setBindGroup(0, bg);
      pass.draw(3);
      pass.end();
    };
    if (!depth) {
      const view = tex.createView({ dimension: '2d' });
      for (let s = 0; s < samples; s++) {
        draw(`@group(0) @binding(0) var src: texture_2d_array<${T}>;
@fragment
fn upload(@builtin(position) p: vec4<f32>) -> @location(0) vec4<${T}> {
  return textureLoad(src, vec2<i32>(p.xy), ${s}, 0);
}
`, view, 1 << s, s === 0 ? 'clear' : 'load');
      }
    } else {
      for (let l = 0; l < levels; l++) {
        for (let z = 0; z < dl; z++) {
          draw(`@group(0) @binding(0) var src: texture_2d_array<f32>;
@fragment
fn upload(@builtin(position) p: vec4<f32>) -> @builtin(frag_depth) f32 {
  return textureLoad(src, vec2<i32>(p.xy), ${z}, ${l}).x;
}
`, tex.createView({ dimension: '2d', baseMipLevel: l, mipLevelCount: 1, baseArrayLayer: z, arrayLayerCount: 1 }), 0xFFFFFFFF, 'clear');
        }
      }
    }
    device.queue.submit([encoder.finish()]);
  }

  // moduleGroups makes the bind group layouts, the buffers (from their
  // bytes), textures (uploaded level by level), views, samplers and bind
  // groups of a render pipeline as written, as runBindings makes a compute
  // dispatch's: every binding visible to the fragment stage and, with
  // vertexVisible (a vertex stage of the kernel's own), to the vertex
  // stage too — but read_write storage buffers and written storage
  // textures, which WebGPU keeps out of it. The buffers and textures go to
  // owned (destroyed after the run); bound[i] is bindings[i]'s buffer.
  async function moduleGroups(bindings, textures, samplers, owned, vertexVisible) {
    for (const b of bindings) {
      if (!BINDING_KINDS.has(b.kind)) {
        return { error: { kind: 'protocol', message: `@group(${b.group}) @binding(${b.binding}) has kind ${JSON.stringify(b.kind)}` } };
      }
    }
    let groups = 0;
    for (const b of [...bindings, ...textures, ...samplers]) groups = Math.max(groups, b.group + 1);
    const visibility = (writable) => GPUShaderStage.FRAGMENT | (vertexVisible && !writable ? GPUShaderStage.VERTEX : 0);
    const entries = Array.from({ length: groups }, () => []);
    for (const b of bindings) {
      entries[b.group].push({ binding: b.binding, visibility: visibility(b.kind === 'storage'), buffer: { type: b.kind } });
    }
    for (const t of textures) {
      entries[t.group].push(t.kind === 'storage'
        ? { binding: t.binding, visibility: visibility(t.access !== 'read-only'), storageTexture: { access: t.access, format: t.format, viewDimension: t.view } }
        : { binding: t.binding, visibility: visibility(false), texture: { sampleType: t.sampleType, viewDimension: t.view, multisampled: t.sampleCount > 1 } });
    }
    for (const s of samplers) entries[s.group].push({ binding: s.binding, visibility: visibility(false), sampler: { type: s.type } });
    for (const e of entries) e.sort((x, y) => x.binding - y.binding);
    const layouts = await scoped(['internal', 'out-of-memory', 'validation'], () => {
      const bgls = entries.map((e) => device.createBindGroupLayout({ label: 'module bindings', entries: e }));
      return { bgls, layout: device.createPipelineLayout({ label: 'module bindings', bindGroupLayouts: bgls }) };
    });
    if (layouts.err) return { error: unsupported(vertexVisible ? 'the vertex and fragment stages' : 'the fragment stage', layouts.err.message) };
    const bufs = await scoped(['out-of-memory', 'validation'], () => bindings.map((b) => {
      const data = Buffer.from(b.data ?? '', 'base64');
      const bytes = size(data.length);
      let usage = GPUBufferUsage.STORAGE;
      if (b.kind === 'storage') usage |= GPUBufferUsage.COPY_SRC;
      if (b.kind === 'uniform') usage = GPUBufferUsage.UNIFORM;
      const buffer = device.createBuffer({ label: `group ${b.group} binding ${b.binding}`, size: bytes, usage, mappedAtCreation: true });
      owned.push(buffer);
      new Uint8Array(buffer.getMappedRange()).set(data);
      buffer.unmap();
      return { buffer, kind: b.kind, length: data.length, bytes };
    }));
    if (bufs.err) return { error: failure('buffer', bufs.err.message) };
    const made = await scoped(['out-of-memory', 'validation'], () => {
      const views = textures.map((t) => makeTexture(t, 0, owned).view);
      return { views, smps: samplers.map(makeSampler) };
    });
    if (made.err) return { error: unsupportedTextures(made.err.message) };
    const { views, smps } = made.value;
    const bg = await scoped(['validation'], () => layouts.value.bgls.map((l, g) => device.createBindGroup({
      layout: l,
      entries: [
        ...bindings.flatMap((b, i) => b.group !== g ? [] : [{ binding: b.binding, resource: { buffer: bufs.value[i].buffer, size: bufs.value[i].bytes } }]),
        ...textures.flatMap((t, i) => t.group !== g ? [] : [{ binding: t.binding, resource: views[i] }]),
        ...samplers.flatMap((s, i) => s.group !== g ? [] : [{ binding: s.binding, resource: smps[i] }]),
      ],
    })));
    if (bg.err) return { error: failure('bind-group', bg.err.message) };
    return { layout: layouts.value.layout, groups: bg.value, bound: bufs.value };
  }

  // The kernel ABI's draw: harness.VertexWGSL's full-screen triangle.
  const DEFAULT_DRAW = {
    vertexBuffers: [], count: 3, instanceCount: 1, firstVertex: 0, firstIndex: 0, baseVertex: 0, firstInstance: 0,
    topology: 'triangle-list', cullMode: 'none', frontFace: 'ccw',
  };

  // drawFragment draws a fragment request (see the header): the kernel
  // ABI's (its two buffers bound, dispatch reading them back) or a render
  // pipeline as written ("entry": its bindings, read back here), with the
  // vertex stage "vertex"/"vertexEntryPoint" and the draw "draw" (vertex
  // and index buffers, counts, primitive state; harness.Draw) into
  // attachments cleared to "clear". The buffers and textures it makes go
  // to owned.
  async function drawFragment(req, owned) {
    if (lost) return failure('device', lost, true);
    uncaptured = [];
    const dr = req.draw ?? DEFAULT_DRAW;
    let handles = null;
    if (req.entry) {
      handles = await moduleGroups(req.bindings ?? [], req.textures ?? [], req.samplers ?? [], owned, !!req.vertexVisible);
      if (handles.error) return handles.error;
    }
    const fl = handles ? { layout: handles.layout } : await fragmentLayout();
    if (fl.err) return { kind: 'unsupported', message: fl.err };
    const userVertex = !!req.vertexVisible;
    const vmod = await scoped(['internal', 'validation'], () => device.createShaderModule({ code: req.vertex }));
    if (vmod.err) {
      // The kernel's own vertex stage is a compile error like its
      // fragment stage; the harness's own failing is the device's.
      if (userVertex) return compile('shader-module', vmod.err.message);
      return failure('device', `the vertex stage: ${vmod.err.message}`);
    }
    const mod = await scoped(['internal', 'validation'], () => device.createShaderModule({ code: req.wgsl }));
    if (mod.err) return compile('shader-module', mod.err.message);
    const [w, h] = req.target;
    // The attachments first: a format the adapter cannot render to (a
    // downlevel adapter such as wgpu's GL backend, whose rgba32float is
    // not renderable there) is the adapter's declared capability, not a
    // verdict on the shader.
    const tex = await scoped(['out-of-memory', 'validation'], () => req.attachments.map((format, i) => {
      const t = device.createTexture({ label: `attachment ${i}`, size: [w, h], format, usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC });
      owned.push(t);
      return t;
    }));
    if (tex.err) {
      if (tex.err instanceof GPUValidationError) {
        return { kind: 'unsupported', message: `the adapter cannot render to ${req.attachments.join(', ')}: ${dawnMessage(tex.err.message)}` };
      }
      return failure('texture', tex.err.message);
    }
    const primitive = { topology: dr.topology, cullMode: dr.cullMode, frontFace: dr.frontFace };
    if (dr.topology === 'triangle-strip' && dr.index) primitive.stripIndexFormat = dr.index.format;
    const pipe = await scoped(['internal', 'validation'], () => device.createRenderPipeline({
      layout: fl.layout,
      vertex: {
        module: vmod.value, entryPoint: req.vertexEntryPoint ?? 'gpudiff_vertex',
        buffers: dr.vertexBuffers.map((b) => ({ arrayStride: b.arrayStride, stepMode: b.stepMode, attributes: b.attributes })),
      },
      fragment: { module: mod.value, entryPoint: req.entryPoint, targets: req.attachments.map((format) => ({ format })) },
      primitive,
    }));
    if (pipe.err) return compile('pipeline', pipe.err.message);

    // The vertex and index buffers, zero-padded to a multiple of 4.
    const filled = (label, b64, usage) => {
      const data = Buffer.from(b64 ?? '', 'base64');
      const buffer = device.createBuffer({ label, size: size(data.length), usage, mappedAtCreation: true });
      owned.push(buffer);
      new Uint8Array(buffer.getMappedRange()).set(data);
      buffer.unmap();
      return buffer;
    };
    const vbs = await scoped(['out-of-memory', 'validation'], () => ({
      vertex: dr.vertexBuffers.map((b, i) => filled(`vertex buffer ${i}`, b.data, GPUBufferUsage.VERTEX)),
      index: dr.index ? filled('index buffer', dr.index.data, GPUBufferUsage.INDEX) : null,
    }));
    if (vbs.err) return failure('buffer', vbs.err.message);
    const clear = (i) => (req.clear ?? [])[i] ?? [0, 0, 0, 0];
    const encodePass = (encoder, groups) => {
      const pass = encoder.beginRenderPass({
        colorAttachments: tex.value.map((t, i) => ({ view: t.createView(), loadOp: 'clear', storeOp: 'store', clearValue: clear(i) })),
      });
      pass.setPipeline(pipe.value);
      groups.forEach((group, g) => pass.setBindGroup(g, group));
      vbs.value.vertex.forEach((b, i) => pass.setVertexBuffer(i, b));
      if (vbs.value.index) {
        pass.setIndexBuffer(vbs.value.index, dr.index.format);
        pass.drawIndexed(dr.count, dr.instanceCount, dr.firstIndex, dr.baseVertex, dr.firstInstance);
      } else {
        pass.draw(dr.count, dr.instanceCount, dr.firstVertex, dr.firstInstance);
      }
      pass.end();
    };
    // Each attachment's rows, padded to 256 bytes (GPUImageCopyBuffer's
    // bytesPerRow), after the storage output in the readback buffer.
    const rows = req.attachments.map((f) => ((w * texelSize[f] + 255) & ~255));
    if (!req.entry) {
      return await dispatch(req, pipe.value, fl.bgl ?? null, null, {
        textures: tex.value, rows, w, h,
        encode: (encoder, bg) => encodePass(encoder, bg ? [bg] : []),
      });
    }
    // As written: the read_write storage buffers at 4-aligned offsets of
    // the readback buffer, then the attachments at 256-aligned ones, read
    // back in that order (harness/render.go's runFragment).
    let readSize = 0;
    const offsets = handles.bound.map((b) => {
      if (b.kind !== 'storage') return -1;
      const at = readSize;
      readSize += b.bytes;
      return at;
    });
    const texOffsets = rows.map((r) => {
      readSize = (readSize + 255) & ~255;
      const at = readSize;
      readSize += r * h;
      return at;
    });
    readSize = Math.max(readSize, 4);
    const rb = await scoped(['out-of-memory', 'validation'], () => {
      const b = device.createBuffer({ label: 'readback', size: readSize, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      owned.push(b);
      return b;
    });
    if (rb.err) return failure('buffer', rb.err.message);
    await compiled(req, null, []);
    const enc = await scoped(['internal', 'out-of-memory', 'validation'], () => {
      const encoder = device.createCommandEncoder();
      encodePass(encoder, handles.groups);
      handles.bound.forEach((b, i) => {
        if (offsets[i] >= 0) encoder.copyBufferToBuffer(b.buffer, 0, rb.value, offsets[i], b.bytes);
      });
      tex.value.forEach((texture, i) => encoder.copyTextureToBuffer({ texture },
        { buffer: rb.value, offset: texOffsets[i], bytesPerRow: rows[i], rowsPerImage: h }, [w, h]));
      device.queue.submit([encoder.finish()]);
    });
    if (enc.err) return failure('encode', enc.err.message);
    return await readBack(rb.value, readSize, (mapped) => {
      const parts = handles.bound.flatMap((b, i) => offsets[i] < 0 ? [] : [mapped.subarray(offsets[i], offsets[i] + b.length)]);
      tex.value.forEach((_, i) => {
        const row = w * texelSize[req.attachments[i]];
        for (let y = 0; y < h; y++) parts.push(mapped.subarray(texOffsets[i] + y * rows[i], texOffsets[i] + y * rows[i] + row));
      });
      return Buffer.concat(parts);
    });
  }

  // dispatch makes the kernel ABI's buffers and bind group (of bgl), runs
  // the pass (compute: encodePass on a compute pass with pipe; fragment:
  // draw.encode) and reads back the output buffer, then draw's textures.
  async function dispatch(req, pipe, bgl, encodePass, draw = null) {
    const inputData = Buffer.from(req.input ?? '', 'base64');
    const inSize = size(inputData.length), outSize = size(req.outputSize);
    let readSize = outSize;
    const texOffsets = [];
    if (draw) {
      for (const r of draw.rows) {
        readSize = (readSize + 255) & ~255; // a multiple of every texel size
        texOffsets.push(readSize);
        readSize += r * draw.h;
      }
    }
    const buffers = [];
    try {
      const bufs = await scoped(['out-of-memory', 'validation'], () => {
        const input = device.createBuffer({ label: 'input', size: inSize, usage: GPUBufferUsage.STORAGE, mappedAtCreation: true });
        buffers.push(input);
        new Uint8Array(input.getMappedRange()).set(inputData);
        input.unmap();
        const output = device.createBuffer({ label: 'output', size: outSize, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
        buffers.push(output);
        const readback = device.createBuffer({ label: 'readback', size: readSize, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
        buffers.push(readback);
        return { input, output, readback };
      });
      if (bufs.err) return failure('buffer', bufs.err.message);
      const { input, output, readback } = bufs.value;

      const bg = !bgl ? { value: null } : await scoped(['validation'], () => device.createBindGroup({
        layout: bgl,
        entries: [
          { binding: 0, resource: { buffer: input, size: inSize } },
          { binding: 1, resource: { buffer: output, size: outSize } },
        ],
      }));
      if (bg.err) return failure('bind-group', bg.err.message);
      await compiled(req, draw ? null : pipe, bg.value ? [bg.value] : []);

      const enc = await scoped(['internal', 'out-of-memory', 'validation'], () => {
        const encoder = device.createCommandEncoder();
        if (draw) {
          draw.encode(encoder, bg.value);
        } else {
          const pass = encoder.beginComputePass();
          pass.setPipeline(pipe);
          pass.setBindGroup(0, bg.value);
          encodePass(pass);
          pass.end();
        }
        encoder.copyBufferToBuffer(output, 0, readback, 0, outSize);
        if (draw) {
          draw.textures.forEach((texture, i) => encoder.copyTextureToBuffer({ texture },
            { buffer: readback, offset: texOffsets[i], bytesPerRow: draw.rows[i], rowsPerImage: draw.h }, [draw.w, draw.h]));
        }
        device.queue.submit([encoder.finish()]);
      });
      if (enc.err) return failure('encode', enc.err.message);

      try {
        await readback.mapAsync(GPUMapMode.READ, 0, readSize);
      } catch (e) {
        if (lost) return failure('device', lost, true);
        return failure('readback', errorText(e));
      }
      const mapped = Buffer.from(readback.getMappedRange(0, readSize));
      const parts = [mapped.subarray(0, req.outputSize)];
      if (draw) {
        draw.textures.forEach((_, i) => {
          const row = draw.w * texelSize[req.attachments[i]];
          for (let y = 0; y < draw.h; y++) parts.push(mapped.subarray(texOffsets[i] + y * draw.rows[i], texOffsets[i] + y * draw.rows[i] + row));
        });
      }
      const out = Buffer.concat(parts).toString('base64');
      readback.unmap();
      if (lost) return failure('device', lost, true);
      if (uncaptured.length > 0) return failure('device', uncaptured.join('\n'));
      return { output: out };
    } finally {
      for (const b of buffers) b.destroy();
    }
  }

  // createPipeline compiles req's WGSL and its entry point into a compute
  // pipeline with pipelineLayout: {pipeline} or {error} (kind "compile").
  async function createPipeline(req, pipelineLayout) {
    const mod = await scoped(['internal', 'validation'], () => device.createShaderModule({ code: req.wgsl }));
    if (mod.err) return { error: compile('shader-module', mod.err.message) };
    const pipe = await scoped(['internal', 'validation'], () => device.createComputePipeline({
      layout: pipelineLayout, compute: { module: mod.value, entryPoint: req.entryPoint },
    }));
    if (pipe.err) return { error: compile('pipeline', pipe.err.message) };
    return { pipeline: pipe.value };
  }

  // readBack maps the first n bytes of readback once the queue has run the
  // submitted work and returns take's result on them ({output}), or the
  // device's failure.
  async function readBack(readback, n, take) {
    try {
      await readback.mapAsync(GPUMapMode.READ, 0, n);
    } catch (e) {
      if (lost) return failure('device', lost, true);
      return failure('readback', errorText(e));
    }
    const out = take(Buffer.from(readback.getMappedRange(0, n))).toString('base64');
    readback.unmap();
    if (lost) return failure('device', lost, true);
    if (uncaptured.length > 0) return failure('device', uncaptured.join('\n'));
    return { output: out };
  }

  const BINDING_KINDS = new Set(['read-only-storage', 'storage', 'uniform']);

  // runBindings runs an entry point as written (see the header), step for
  // step as harness/bindings.go's runBindings does on wgpu, so that both
  // return the same bytes for the same dispatch.
  async function runBindings(req) {
    if (lost) return failure('device', lost, true);
    uncaptured = [];
    const bindings = req.bindings ?? [];
    const wg = req.workgroups;
    if (!Array.isArray(wg) || wg.length !== 3) {
      return { kind: 'protocol', message: `workgroups ${JSON.stringify(wg)}, want [x, y, z]` };
    }
    for (const b of bindings) {
      if (!BINDING_KINDS.has(b.kind)) {
        return { kind: 'protocol', message: `@group(${b.group}) @binding(${b.binding}) has kind ${JSON.stringify(b.kind)}` };
      }
    }

    // A bind group layout per group up to the highest, empty for a group
    // without bindings, and the pipeline layout of them all.
    const textures = req.textures ?? [];
    const samplers = req.samplers ?? [];
    let groups = 0;
    for (const b of [...bindings, ...textures, ...samplers]) groups = Math.max(groups, b.group + 1);
    const entries = Array.from({ length: groups }, () => []);
    for (const b of bindings) {
      entries[b.group].push({ binding: b.binding, visibility: GPUShaderStage.COMPUTE, buffer: { type: b.kind } });
    }
    // Textures and samplers (harness/texture.go): a sampled or storage
    // texture entry, a sampler entry of the layout's sampler type.
    for (const t of textures) {
      entries[t.group].push(t.kind === 'storage'
        ? { binding: t.binding, visibility: GPUShaderStage.COMPUTE, storageTexture: { access: t.access, format: t.format, viewDimension: t.view } }
        : { binding: t.binding, visibility: GPUShaderStage.COMPUTE, texture: { sampleType: t.sampleType, viewDimension: t.view, multisampled: t.sampleCount > 1 } });
    }
    for (const s of samplers) {
      entries[s.group].push({ binding: s.binding, visibility: GPUShaderStage.COMPUTE, sampler: { type: s.type } });
    }
    for (const e of entries) e.sort((x, y) => x.binding - y.binding);
    const layouts = await scoped(['internal', 'out-of-memory', 'validation'], () => {
      const bgls = entries.map((e) => device.createBindGroupLayout({ label: 'module bindings', entries: e }));
      return { bgls, pipelineLayout: device.createPipelineLayout({ label: 'module bindings', bindGroupLayouts: bgls }) };
    });
    if (layouts.err) return unsupported('the compute stage', layouts.err.message);
    const { bgls, pipelineLayout } = layouts.value;

    const made = await createPipeline(req, pipelineLayout);
    if (made.error) return made.error;

    const buffers = [];
    try {
      // One buffer per binding from its initial bytes; each read_write
      // storage buffer gets a 4-aligned place in the readback buffer.
      const bufs = await scoped(['out-of-memory', 'validation'], () => {
        let readSize = 0;
        const bound = bindings.map((b) => {
          const data = Buffer.from(b.data ?? '', 'base64');
          const bytes = size(data.length);
          let usage = GPUBufferUsage.STORAGE;
          if (b.kind === 'storage') usage |= GPUBufferUsage.COPY_SRC;
          if (b.kind === 'uniform') usage = GPUBufferUsage.UNIFORM;
          const buffer = device.createBuffer({
            label: `group ${b.group} binding ${b.binding}`, size: bytes, usage, mappedAtCreation: true,
          });
          buffers.push(buffer);
          new Uint8Array(buffer.getMappedRange()).set(data);
          buffer.unmap();
          const offset = b.kind === 'storage' ? readSize : -1;
          if (b.kind === 'storage') readSize += bytes;
          return { buffer, length: data.length, bytes, offset };
        });
        // Each written storage texture level gets a 256-aligned place
        // with rows padded to 256 bytes (copyTextureToBuffer's rule).
        const texs = textures.map((t) => {
          const levels = t.levels.map((lv) => {
            const row = Math.ceil(lv[0] * t.texelSize / 256) * 256;
            let offset = -1;
            if (t.readBack) {
              readSize = Math.ceil(readSize / 256) * 256;
              offset = readSize;
              readSize += row * lv[1] * lv[2];
            }
            return { size: lv, row, offset };
          });
          return { levels };
        });
        readSize = Math.max(readSize, 4);
        const readback = device.createBuffer({ label: 'readback', size: readSize, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
        buffers.push(readback);
        return { bound, readSize, readback, texs };
      });
      if (bufs.err) return failure('buffer', bufs.err.message);
      const { bound, readSize, readback, texs } = bufs.value;

      const made2 = await scoped(['out-of-memory', 'validation'], () => {
        const views = textures.map((t, i) => {
          // A storage texture is read back (COPY_SRC); destroyed with the buffers.
          const made = makeTexture(t, t.kind === 'storage' ? GPUTextureUsage.COPY_SRC : 0, buffers);
          texs[i].tex = made.tex;
          return made.view;
        });
        return { views, smps: samplers.map(makeSampler) };
      });
      if (made2.err) return unsupportedTextures(made2.err.message);
      const { views, smps } = made2.value;

      const bg = await scoped(['validation'], () => bgls.map((l, g) => device.createBindGroup({
        layout: l,
        entries: [
          ...bindings.flatMap((b, i) => b.group !== g ? []
            : [{ binding: b.binding, resource: { buffer: bound[i].buffer, size: bound[i].bytes } }]),
          ...textures.flatMap((t, i) => t.group !== g ? [] : [{ binding: t.binding, resource: views[i] }]),
          ...samplers.flatMap((s, i) => s.group !== g ? [] : [{ binding: s.binding, resource: smps[i] }]),
        ],
      })));
      if (bg.err) return failure('bind-group', bg.err.message);
      await compiled(req, made.pipeline, bg.value);

      const enc = await scoped(['internal', 'out-of-memory', 'validation'], () => {
        const encoder = device.createCommandEncoder();
        const pass = encoder.beginComputePass();
        pass.setPipeline(made.pipeline);
        bg.value.forEach((group, g) => pass.setBindGroup(g, group));
        pass.dispatchWorkgroups(wg[0], wg[1], wg[2]);
        pass.end();
        for (const r of bound) {
          if (r.offset >= 0) encoder.copyBufferToBuffer(r.buffer, 0, readback, r.offset, r.bytes);
        }
        texs.forEach((t) => t.levels.forEach((lv, l) => {
          if (lv.offset >= 0) {
            encoder.copyTextureToBuffer({ texture: t.tex, mipLevel: l },
              { buffer: readback, offset: lv.offset, bytesPerRow: lv.row, rowsPerImage: lv.size[1] }, lv.size);
          }
        }));
        device.queue.submit([encoder.finish()]);
      });
      if (enc.err) return failure('encode', enc.err.message);

      // Without a read_write buffer nothing is copied into readback, so its
      // mapping would not wait for the dispatch: wait for the queue first.
      if (bound.every((r) => r.offset < 0) && textures.every((t) => !t.readBack)) await device.queue.onSubmittedWorkDone();
      return await readBack(readback, readSize, (mapped) => {
        const parts = bound.filter((r) => r.offset >= 0).map((r) => mapped.subarray(r.offset, r.offset + r.length));
        // Written storage textures, de-padded: width × texel size a row.
        textures.forEach((t, i) => texs[i].levels.forEach((lv) => {
          if (lv.offset < 0) return;
          const rb = lv.size[0] * t.texelSize;
          for (let r = 0; r < lv.size[1] * lv.size[2]; r++) {
            parts.push(mapped.subarray(lv.offset + r * lv.row, lv.offset + r * lv.row + rb));
          }
        }));
        return Buffer.concat(parts);
      });
    } finally {
      for (const b of buffers) b.destroy();
    }
  }

  // compileAll creates a shader module from each WGSL text and returns
  // Tint's message for each rejected one (null for an accepted one).
  async function compileAll(codes) {
    if (lost) return failure('device', lost, true);
    const messages = [];
    for (const code of codes) {
      const mod = await scoped(['internal', 'validation'], () => device.createShaderModule({ code }));
      messages.push(mod.err ? dawnMessage(mod.err.message) : null);
    }
    if (lost) return failure('device', lost, true);
    return { compiled: messages };
  }

  // Each Run leaves a shader module and a pipeline to the garbage
  // collector, which sees only their small JS wrappers, not the driver's
  // compiled code behind them: collect every gcEvery Runs (node runs with
  // --expose-gc), or the worker grows by hundreds of MiB before V8 bothers.
  const gcEvery = 64;
  let runs = 0;

  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (line.trim() === '') continue;
    let req;
    try {
      req = JSON.parse(line);
    } catch (e) {
      send({ error: { kind: 'protocol', message: `bad request: ${errorText(e)}` } });
      continue;
    }
    let reply;
    try {
      reply = Array.isArray(req.compile) ? await compileAll(req.compile)
        : req.stage === 'fragment' ? await runFragment(req)
          : req.workgroups !== undefined ? await runBindings(req) : await run(req);
    } catch (e) {
      // An exception mid-run leaves the device in a state nobody checked
      // (Deno's lavapipe: an invalid buffer, then "device lost" a run
      // later): the worker replies and exits, so the next run, usually
      // another case's, gets a fresh device and not this run's failure.
      reply = failure('device', `worker exception: ${e && e.stack ? e.stack : errorText(e)}`, true);
    }
    const before = runs;
    runs += Array.isArray(req.compile) ? req.compile.length : 1;
    if (Math.floor(runs / gcEvery) > Math.floor(before / gcEvery) && globalThis.gc) globalThis.gc();
    const broken = reply.kind === 'device' && reply.broken;
    send(reply.output !== undefined ? { id: req.id, output: reply.output }
      : reply.compiled !== undefined ? { id: req.id, compiled: reply.compiled }
        : { id: req.id, error: reply });
    if (broken) process.exit(2);
  }
  device.destroy();
  process.exit(0);
}

const [mode, ...args] = DENO ? Deno.args : process.argv.slice(1);
if (mode === 'list') {
  await list(args);
} else if (mode === 'serve') {
  await serve(args[0], args[1] ?? '', args[2] ?? 'core', args[3] === 'all-features');
} else {
  send({ fatal: `unknown mode ${JSON.stringify(mode)}; want list or serve` });
  process.exit(1);
}
