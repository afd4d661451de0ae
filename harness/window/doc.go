// Package window shows one image at a time in a desktop window through
// WebGPU, and renders the same frame offscreen for a screenshot. It is the
// screen side of `gpudiff view` (issue 16 item 3); what the image shows
// and what keys and clicks mean is its caller's business (report.Viewer).
//
// The window is GLFW's (github.com/go-gl/glfw/v3.3, X11 on Linux), with no
// client API; its WebGPU surface comes from
// github.com/cogentcore/webgpu/wgpuglfw. The drawing device is whichever
// adapter the WebGPU instance offers as compatible with that surface
// (under Xvfb: lavapipe through Mesa's X11 WSI) — not necessarily one of
// the adapters a case ran on. The image is uploaded as an rgba8unorm
// texture (rgba8unorm-srgb when the surface offers only sRGB formats, so
// that its bytes reach the screen unchanged either way) and drawn as one
// full-screen triangle sampling it with a sampler whose filters are
// "nearest" (WebGPU GPUFilterMode), inside a viewport that scales the
// image by the largest whole factor that fits the framebuffer and centres
// it (Fit); the rest is cleared to grey. Screenshot renders that frame
// with the same pipeline into a texture of the framebuffer's size and
// reads it back (WebGPU copyTextureToBuffer, whose bytesPerRow must be a
// multiple of 256), never the swapchain.
//
// Everything but Fit, Viewport and WindowSize needs cgo, the X11
// development headers and the build tag glfw (`go build -tags glfw`), so
// that headless builds need no X11. GLFW must run on the process's main
// thread: the package locks the main goroutine to it at init, and Open,
// the Window's methods and Close must be called from the main goroutine.
//
// It must never depend on another gpudiff package (it shows images, not
// results), print anything, or read the environment beyond what GLFW and
// the WebGPU implementation read themselves (DISPLAY).
package window
