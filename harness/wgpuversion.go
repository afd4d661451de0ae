package harness

// The wgpu-native gpudiff links is the static library the Go binding
// github.com/cogentcore/webgpu v0.23.0 ships (wgpu/lib/<os>/<arch>/
// libwgpu_native.a). The binding's version number is its own: the library
// was built from gfx-rs/wgpu commit 87576b7, the tag wgpu-v0.19.4 (April
// 2024), whose crates are wgpu-core and wgpu-hal 0.19.4, wgpu-types 0.19.2
// and naga 0.19.2 (naga is built from that same checkout, so its version
// is the one the tag's naga/Cargo.toml gives). wgpu-native's own
// wgpuGetVersion reports 0 for this build, so the version is pinned here;
// TestWGPUVersionMatchesLinkedLibrary reads the library's cargo checkout
// paths and fails when the binding starts shipping another wgpu.
const (
	// wgpuCommit is the gfx-rs/wgpu commit the linked library was built
	// from, as its cargo checkout paths abbreviate it
	// (".../git/checkouts/wgpu-<hash>/87576b7/wgpu-core/src/...").
	wgpuCommit = "87576b7"
	// WGPUImplementationVersion is AdapterInfo.ImplementationVersion of
	// every wgpu adapter: the wgpu release the linked wgpu-native was
	// built from, and its shader compiler naga.
	WGPUImplementationVersion = "wgpu 0.19.4 (naga 0.19.2)"
)
