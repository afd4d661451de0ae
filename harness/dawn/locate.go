package dawn

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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

// tools is what running the worker needs.
type tools struct {
	node    string // path of the node binary
	webgpu  string // path of the npm package's index.js
	version string // the package's version, from its package.json
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

	var dirs []string
	if m := os.Getenv(ModulesEnv); m != "" {
		dirs = []string{m}
	} else {
		if wd, err := os.Getwd(); err == nil {
			dirs = append(dirs, modulesAbove(wd)...)
		}
		if _, src, _, ok := runtime.Caller(0); ok {
			dirs = append(dirs, modulesAbove(filepath.Dir(src))...)
		}
	}
	for _, dir := range dirs {
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
		return t, nil
	}
	where := "in " + ModulesEnv + "=" + os.Getenv(ModulesEnv)
	if os.Getenv(ModulesEnv) == "" {
		where = "in any node_modules above the working directory or " + sourceDir()
	}
	return t, fmt.Errorf("%w: the npm package webgpu (Dawn's node binding) is not installed %s: %s", ErrNotInstalled, where, installHint)
}

// modulesAbove lists dir/node_modules and the same in every parent of dir.
func modulesAbove(dir string) []string {
	var out []string
	for {
		out = append(out, filepath.Join(dir, "node_modules"))
		parent := filepath.Dir(dir)
		if parent == dir {
			return out
		}
		dir = parent
	}
}

func sourceDir() string {
	if _, src, _, ok := runtime.Caller(0); ok {
		return filepath.Dir(src)
	}
	return "this package's source"
}

// Version returns the version of the npm package webgpu that the worker
// loads, e.g. "0.6.2" (the package publishes dawn.node builds; see its
// package.json), or an error wrapping ErrNotInstalled.
func Version() (string, error) {
	t, err := locate()
	return t.version, err
}

// workerEnv is the worker's environment: the caller's, plus the variables
// Dawn and the drivers need where the caller left them unset, plus the path
// of the npm package for worker.mjs.
func workerEnv(t tools) []string {
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
	setDefault("EGL_PLATFORM", "surfaceless") // Dawn's GL backends over EGL with no display
	return append(env, "GPUDIFF_DAWN_WEBGPU="+t.webgpu)
}
