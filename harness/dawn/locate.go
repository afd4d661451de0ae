package dawn

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/gpudiff/gpudiff/harness"
)

// Environment variables that say where the tools are.
const (
	// NodeEnv names the node binary to run (default: node in PATH).
	NodeEnv = "GPUDIFF_NODE"
	// ModulesEnv names the node_modules directory that holds the npm
	// package webgpu (default: the nearest node_modules with webgpu above
	// the working directory, else above this package's source directory).
	ModulesEnv = "GPUDIFF_NODE_MODULES"
)

// swiftShaderICD is where Debian's chromium package installs the SwiftShader
// Vulkan ICD manifest (as in harness).
const swiftShaderICD = "/usr/lib/chromium/vk_swiftshader_icd.json"

// ErrNotInstalled is wrapped by the errors of Adapters and Open when node or
// the npm package webgpu cannot be found.
var ErrNotInstalled = errors.New("dawn: not installed")

const installHint = "run `make deps` (it installs Node.js and runs `npm ci` in the module root, where package.json pins webgpu)"

// tools is what running the worker needs: node and dawn.node for Dawn, or
// the deno binary for Deno (deno set).
type tools struct {
	node    string // path of the node binary (Dawn)
	webgpu  string // path of the npm package's index.js (Dawn)
	version string // the npm package's version, from its package.json
	deno    string // path of the deno binary; "" for Dawn
	// implVersion is AdapterInfo.ImplementationVersion of the adapters
	// these tools run: "webgpu 0.6.2 (dawn.node)", "deno 2.9.6 (wgpu-core
	// 29.0.1, naga 29.0.3)".
	implVersion string
}

// impl is the Implementation the tools run.
func (t tools) impl() string {
	if t.deno != "" {
		return DenoImplementation
	}
	return Implementation
}

// locate finds node and the npm package webgpu.
func locate() (tools, error) {
	var t tools
	node := os.Getenv(NodeEnv)
	if node == "" {
		node = "node"
	}
	path, err := exec.LookPath(node)
	if err != nil {
		return t, fmt.Errorf("%w: node (Node.js ≥ 18) not found (%v): %s", ErrNotInstalled, err, installHint)
	}
	t.node = path

	for _, dir := range modulesDirs() {
		pkg := filepath.Join(dir, "webgpu")
		b, err := os.ReadFile(filepath.Join(pkg, "package.json"))
		if err != nil {
			continue
		}
		var meta struct{ Version, Main string }
		if err := json.Unmarshal(b, &meta); err != nil {
			return t, fmt.Errorf("%w: %s: %v: %s", ErrNotInstalled, pkg, err, installHint)
		}
		if meta.Main == "" {
			meta.Main = "index.js"
		}
		t.webgpu, t.version = filepath.Join(pkg, meta.Main), meta.Version
		t.implVersion = "webgpu " + meta.Version + " (dawn.node)"
		return t, nil
	}
	where := "in " + ModulesEnv + "=" + os.Getenv(ModulesEnv)
	if os.Getenv(ModulesEnv) == "" {
		where = "in any node_modules above the working directory or " + harness.SourceDir()
	}
	return t, fmt.Errorf("%w: the npm package webgpu (Dawn's node binding) is not installed %s: %s", ErrNotInstalled, where, installHint)
}

// modulesDirs lists the node_modules directories to look for npm packages
// in: ModulesEnv's, else every node_modules above the working directory and
// above the module's source (harness.SearchAbove).
func modulesDirs() []string {
	if m := os.Getenv(ModulesEnv); m != "" {
		return []string{m}
	}
	return harness.SearchAbove("node_modules")
}

// Version returns the version of the npm package webgpu that the worker
// loads, e.g. "0.6.2" (the package publishes dawn.node builds; see its
// package.json), or an error wrapping ErrNotInstalled.
func Version() (string, error) {
	t, err := locate()
	return t.version, err
}

// workerEnv is the worker's environment: the caller's, plus the variables
// the runtime and the drivers need where the caller left them unset, plus
// the path of the npm package for worker.mjs, then extra (KEY=VALUE pairs
// that replace the caller's: a driver set's, Deno's backend and driver
// choice).
func workerEnv(t tools, extra []string) []string {
	env := os.Environ()
	setDefault := func(k, v string) {
		if _, set := os.LookupEnv(k); !set {
			env = append(env, k+"="+v)
		}
	}
	if _, err := os.Stat(swiftShaderICD); err == nil {
		setDefault("VK_ADD_DRIVER_FILES", swiftShaderICD)
	}
	setDefault("NODEVICE_SELECT", "1")        // Mesa's device-select layer: see harness.setupEnv
	setDefault("EGL_PLATFORM", "surfaceless") // the GL backends over EGL with no display
	if t.deno != "" {
		setDefault("DENO_NO_UPDATE_CHECK", "1")
		setDefault("DENO_NO_PROMPT", "1")
		// Deno's Vulkan and GL backends print "XDG_RUNTIME_DIR is invalid
		// or not set" on every start without one.
		if dir, err := privateRuntimeDir(); err == nil {
			setDefault("XDG_RUNTIME_DIR", dir)
		}
	} else {
		env = append(env, "GPUDIFF_DAWN_WEBGPU="+t.webgpu)
	}
	return overlay(env, extra)
}

// overlay returns env with each KEY=VALUE of extra replacing env's value of
// KEY (or added).
func overlay(env, extra []string) []string {
	if len(extra) == 0 {
		return env
	}
	keys := map[string]bool{}
	for _, kv := range extra {
		k, _, _ := strings.Cut(kv, "=")
		keys[k] = true
	}
	out := make([]string, 0, len(env)+len(extra))
	for _, kv := range env {
		if k, _, _ := strings.Cut(kv, "="); !keys[k] {
			out = append(out, kv)
		}
	}
	return append(out, extra...)
}

// privateRuntimeDir is a directory only this user can use, made once, for
// XDG_RUNTIME_DIR: <temp>/gpudiff-runtime-<uid>, mode 0700.
func privateRuntimeDir() (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("gpudiff-runtime-%d", os.Getuid()))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		return "", fmt.Errorf("%s is not private", dir)
	}
	return dir, nil
}
