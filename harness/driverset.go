package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// DriverSet is a set of user-space drivers that gpudiff can run adapters
// on beside the system's own, e.g. a newer Mesa unpacked into the build
// directory by `make deps`. Processes that use a set (worker processes of
// every implementation) run with its Env added to their environment; the
// adapters found in it carry its Name in AdapterInfo.DriverSet and, as a
// suffix, in their names.
//
// A process loads one set: the drivers' libraries are found through
// LD_LIBRARY_PATH and the loaders' manifests, read once at process start,
// and two Mesa stacks cannot share a process. So this process's in-process
// wgpu adapters (Open) are those of its own set (CurrentDriverSet, "" for
// the system's), and another set's adapters are listed and run in child
// processes started with that set's Env (Adapters, harness/worker).
type DriverSet struct {
	// Name is "" for the system's drivers, else a short lower-case word
	// used as the adapter name suffix ("mesa25").
	Name string
	// Version is what the set is, for people: "Mesa 25.0.7-2~bpo12+1".
	// "" for the system's set.
	Version string
	// Env is KEY=VALUE pairs that select the set's drivers, and only
	// them, in a process started with them (replacing the caller's values
	// of those keys; one Env serves Vulkan and GL alike). For "mesa25":
	//
	//	GPUDIFF_DRIVER_SET=mesa25          (DriverSetEnv: the set's name, for harness in that process)
	//	VK_ICD_FILENAMES=<dir>/lvp_icd.json and VK_DRIVER_FILES=<same>   (only lavapipe 25)
	//	VK_ADD_DRIVER_FILES=               (no SwiftShader or other added ICD)
	//	__EGL_VENDOR_LIBRARY_FILENAMES=<dir>/50_mesa.json   (glvnd: only Mesa 25's EGL)
	//	LD_LIBRARY_PATH=<dir>/root/usr/lib/<multiarch>[:the caller's value]
	//	NODEVICE_SELECT=1                  (Mesa's device-select layer off, as setupEnv does)
	//
	// where <dir> is the set's directory (build/mesa25). Empty for the
	// system's set.
	Env []string
	// VulkanICDs are the set's Vulkan ICD manifests (absolute paths), for
	// implementations that can open only one driver per process (Deno):
	// each is tried alone with VK_ICD_FILENAMES (together with Env). For
	// the system's set, the loader's manifests found in the standard
	// directories plus SwiftShader's.
	VulkanICDs []string
}

// Environment variables of driver sets.
const (
	// DriverSetEnv names the driver set a process was started in (a
	// set's Env sets it): harness then names its in-process wgpu adapters
	// with that set's suffix, adds no SwiftShader, and lists no other set.
	// Unset or empty: the system's set.
	DriverSetEnv = "GPUDIFF_DRIVER_SET"
	// Mesa25Env overrides where the "mesa25" set is: the directory `make
	// deps` fills (holding VERSION, lvp_icd.json, 50_mesa.json, LIBDIR and
	// root/), or "off" for no mesa25 set. Unset: build/mesa25 in the
	// nearest directory above the working directory that has one, else
	// above this package's source directory.
	Mesa25Env = "GPUDIFF_MESA25"
	// listEnv, in a child's environment, makes harness's init list the
	// child's wgpu adapters as JSON on file descriptor 3 and exit
	// (listSet).
	listEnv = "GPUDIFF_HARNESS_LIST_ADAPTERS"
)

// Mesa25Dir is where `make deps` unpacks Mesa 25, relative to the module
// root.
const Mesa25Dir = "build/mesa25"

// mesa25Hint says how to get the mesa25 set.
const mesa25Hint = "run `make deps` (it unpacks Mesa 25 from Debian's bookworm-backports into " + Mesa25Dir + ")"

// ErrDriverSetNotInstalled is wrapped by Mesa25's error when the set is not
// unpacked.
var ErrDriverSetNotInstalled = errors.New("harness: driver set not installed")

// DriverSets lists the driver sets present on this machine: the system's
// (always first, Name "") and then "mesa25" when `make deps` has unpacked
// it (see Mesa25). Finding none extra is not an error. It reads a few
// small files on each call.
func DriverSets() []DriverSet {
	sets := []DriverSet{systemDriverSet()}
	if m, err := Mesa25(); err == nil {
		sets = append(sets, m)
	}
	return sets
}

// CurrentDriverSet is the name of the driver set this process was started
// in: DriverSetEnv's value, "" for the system's.
func CurrentDriverSet() string { return os.Getenv(DriverSetEnv) }

// DriverSetOf returns the driver set whose suffix the adapter name (a full
// name, or an alias: "wgpu-vulkan:llvmpipe-mesa25", "vulkan:llvmpipe-mesa25",
// "…-mesa25#2", a variant's "…-mesa25-lp128") carries, among DriverSets'
// extra sets; ok is false for a
// name of the system's set (or of a set not present here). It reads only
// the name: no adapter is listed.
func DriverSetOf(name string) (set DriverSet, ok bool) {
	i := strings.LastIndex(name, ":")
	if i < 0 {
		return DriverSet{}, false
	}
	_, base := VariantOfName(strings.ToLower(name)) // "…-mesa25-lp128" is of mesa25
	device, _, _ := strings.Cut(base[strings.LastIndex(base, ":")+1:], "#")
	for _, s := range DriverSets()[1:] {
		if strings.HasSuffix(device, "-"+s.Name) {
			return s, true
		}
	}
	return DriverSet{}, false
}

// Mesa25 returns the "mesa25" driver set: Mesa 25's lavapipe and llvmpipe
// (GL/EGL) as `make deps` unpacks them from Debian's bookworm-backports
// into build/mesa25 (Makefile MESA25_VERSION), found as Mesa25Env says.
// Version is "Mesa " and the package version in its VERSION file; Env is
// described at DriverSet.Env; VulkanICDs is its lvp_icd.json.
//
// Errors wrap ErrDriverSetNotInstalled, with `make deps` as the remedy:
// no directory found, Mesa25Env "off", or a directory without the files
// above.
func Mesa25() (DriverSet, error) {
	dir, err := locateMesa25()
	if err != nil {
		return DriverSet{}, err
	}
	read := func(f string) (string, error) {
		b, err := os.ReadFile(filepath.Join(dir, f))
		return strings.TrimSpace(string(b)), err
	}
	version, err1 := read("VERSION")
	libdir, err2 := read("LIBDIR")
	icd, egl := filepath.Join(dir, "lvp_icd.json"), filepath.Join(dir, "50_mesa.json")
	_, err3 := os.Stat(icd)
	_, err4 := os.Stat(egl)
	if err := errors.Join(err1, err2, err3, err4); err != nil || version == "" || libdir == "" {
		return DriverSet{}, fmt.Errorf("%w: mesa25 in %s is incomplete (%v): %s", ErrDriverSetNotInstalled, dir, err, mesa25Hint)
	}
	ld := filepath.Join(dir, "root", libdir)
	if old := os.Getenv("LD_LIBRARY_PATH"); old != "" {
		ld += ":" + old
	}
	return DriverSet{
		Name:    "mesa25",
		Version: "Mesa " + version,
		Env: []string{
			DriverSetEnv + "=mesa25",
			"VK_ICD_FILENAMES=" + icd,
			"VK_DRIVER_FILES=" + icd,
			"VK_ADD_DRIVER_FILES=",
			"__EGL_VENDOR_LIBRARY_FILENAMES=" + egl,
			"LD_LIBRARY_PATH=" + ld,
			"NODEVICE_SELECT=1",
		},
		VulkanICDs: []string{icd},
	}, nil
}

// locateMesa25 finds the mesa25 directory as Mesa25Env says.
func locateMesa25() (string, error) {
	if v, set := os.LookupEnv(Mesa25Env); set && v != "" {
		if v == "off" {
			return "", fmt.Errorf("%w: mesa25 is turned off (%s=off)", ErrDriverSetNotInstalled, Mesa25Env)
		}
		abs, err := filepath.Abs(v)
		if err != nil {
			return "", fmt.Errorf("%w: %s=%s: %v", ErrDriverSetNotInstalled, Mesa25Env, v, err)
		}
		return abs, nil
	}
	for _, cand := range SearchAbove(Mesa25Dir) {
		if _, err := os.Stat(filepath.Join(cand, "VERSION")); err == nil {
			return cand, nil
		}
	}
	return "", fmt.Errorf("%w: no %s above the working directory or %s: %s",
		ErrDriverSetNotInstalled, Mesa25Dir, SourceDir(), mesa25Hint)
}

// SearchAbove lists where a file or directory the build puts beside the
// module (build/mesa25, node_modules) may be: rel joined to the working
// directory and to each of its parents, then to this package's source
// directory and each of its parents (so a test binary or a gpudiff built
// in the checkout finds it from anywhere), nearest first.
func SearchAbove(rel string) []string {
	var out []string
	for _, dir := range []string{workDir(), SourceDir()} {
		for dir != "" {
			out = append(out, filepath.Join(dir, rel))
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	return out
}

func workDir() string {
	wd, _ := os.Getwd()
	return wd
}

// SourceDir is package harness's source directory as compiled in ("" when
// the binary does not know it, e.g. built with -trimpath).
func SourceDir() string {
	if _, src, _, ok := runtime.Caller(0); ok && filepath.IsAbs(src) {
		return filepath.Dir(src)
	}
	return ""
}

// DriverSetError reports a driver set's adapters that could not be listed
// (Adapters, AllAdapters: the other adapters are still returned), or an
// adapter of another set than this process's that Open was asked to open
// in-process (Adapter set: open it with OpenAny, harness/devices or
// harness/worker, which start a process with the set's Env).
type DriverSetError struct {
	Set     string // the set's Name
	Version string // the set's Version
	Adapter string // the adapter Open was given; "" for a listing
	Err     error
}

func (e *DriverSetError) Error() string {
	if e.Adapter != "" {
		return fmt.Sprintf("harness: adapter %s is in driver set %s (%s), which only a process started with the set's environment loads: open it with OpenAny, harness/devices or harness/worker",
			e.Adapter, e.Set, e.Version)
	}
	return fmt.Sprintf("harness: driver set %s (%s): listing its adapters: %v", e.Set, e.Version, e.Err)
}

func (e *DriverSetError) Unwrap() error { return e.Err }

// listTimeout bounds a listing child: a process start, a WebGPU instance
// and the driver probes (about 0.2 s idle; seconds on a loaded machine).
var listTimeout = 60 * time.Second

// setListing is one set's adapters as its child process listed them, once
// per process.
type setListing struct {
	once  sync.Once
	infos []AdapterInfo
	err   error
}

var setListings sync.Map // set name → *setListing

// listSetOnce is listSet, cached per set name for the life of the process
// (a set's drivers do not change under a running process).
func listSetOnce(s DriverSet) ([]AdapterInfo, error) {
	v, _ := setListings.LoadOrStore(s.Name, &setListing{})
	l := v.(*setListing)
	l.once.Do(func() { l.infos, l.err = listSet(s) })
	return l.infos, l.err
}

// listReply is what a listing child writes on file descriptor 3.
type listReply struct {
	Adapters []AdapterInfo `json:"adapters"`
	Err      string        `json:"error,omitempty"`
}

// listSet lists set s's wgpu adapters, with their drivers, in a child
// process: this executable (os.Executable: gpudiff, or a test binary; any
// binary that links harness) started with s.Env and listEnv, which
// harness's init answers before main or TestMain runs (serveList). The
// child's stdout and stderr are kept for the error (their first 1.5 KiB),
// never shown. Errors are *DriverSetError: the child could not start, did
// not answer within listTimeout, crashed (wgpu-native panics when EGL has
// no vendor library), or reported an error (no adapter found).
func listSet(s DriverSet) ([]AdapterInfo, error) {
	fail := func(err error) ([]AdapterInfo, error) {
		return nil, &DriverSetError{Set: s.Name, Version: s.Version, Err: err}
	}
	exe, err := os.Executable()
	if err != nil {
		return fail(fmt.Errorf("finding the running binary to re-execute: %w", err))
	}
	r, w, err := os.Pipe()
	if err != nil {
		return fail(err)
	}
	defer r.Close()
	ctx, cancel := context.WithTimeout(context.Background(), listTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(append(os.Environ(), s.Env...), listEnv+"=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.ExtraFiles = []*os.File{w} // descriptor 3 in the child
	cmd.WaitDelay = time.Second
	err = cmd.Start()
	w.Close()
	if err != nil {
		return fail(fmt.Errorf("starting %s: %w", exe, err))
	}
	b, _ := io.ReadAll(r)
	werr := cmd.Wait()
	var rep listReply
	if jerr := json.Unmarshal(b, &rep); jerr != nil || werr != nil {
		return fail(fmt.Errorf("listing child %s (%v, reply %v): %s", exe, werr, jerr, firstBytes(out.String(), 1536)))
	}
	if rep.Err != "" {
		return fail(errors.New(rep.Err))
	}
	for _, a := range rep.Adapters {
		if a.DriverSet != s.Name {
			return fail(fmt.Errorf("listing child reported %s in driver set %q", a.Name, a.DriverSet))
		}
	}
	return rep.Adapters, nil
}

// firstBytes is s cut to n bytes: a crash's reason (a Rust panic's message,
// a Go runtime's signal) comes first, its stacks after.
func firstBytes(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// init answers a listing request (listSet) when listEnv asks for one: the
// process lists its own wgpu adapters (those of the driver set its
// environment selects), writes them on descriptor 3 and exits, before any
// other package's init.
func init() {
	if os.Getenv(listEnv) != "" {
		serveList()
	}
}

// serveList is the listing child's side: Adapters (with drivers) as JSON
// on descriptor 3, then exit 0 (1 when descriptor 3 cannot be written).
func serveList() {
	out := os.NewFile(3, "gpudiff-adapter-list")
	var rep listReply
	if CurrentDriverSet() == "" {
		rep.Err = "listing child started without " + DriverSetEnv
	} else if infos, err := Adapters(); err != nil {
		rep.Err = err.Error()
	} else {
		rep.Adapters = infos
	}
	if err := json.NewEncoder(out).Encode(rep); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// vulkanICDDirs are the directories the Vulkan loader reads ICD manifests
// from on Linux when VK_ICD_FILENAMES and VK_DRIVER_FILES are unset
// (LoaderInterfaceArchitecture.md, "Driver Discovery on Linux"), in its
// search order.
var vulkanICDDirs = []string{"/etc/vulkan/icd.d", "/usr/local/share/vulkan/icd.d", "/usr/share/vulkan/icd.d"}

// systemDriverSet is the system's drivers: every manifest of the loader's
// standard directories for this machine's architecture, then SwiftShader's
// (which harness adds to the loader's list, see setupEnv).
func systemDriverSet() DriverSet {
	var icds []string
	seen := map[string]bool{}
	add := func(p string) {
		if !seen[filepath.Base(p)] {
			seen[filepath.Base(p)] = true
			icds = append(icds, p)
		}
	}
	for _, dir := range vulkanICDDirs {
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range ents {
			n := e.Name()
			if !strings.HasSuffix(n, ".json") || otherArch(n) {
				continue
			}
			add(filepath.Join(dir, n))
		}
	}
	if _, err := os.Stat(swiftShaderICD); err == nil {
		add(swiftShaderICD)
	}
	return DriverSet{VulkanICDs: icds}
}

// otherArch reports whether an ICD manifest's file name names an
// architecture other than this process's (Debian installs
// lvp_icd.x86_64.json and lvp_icd.i686.json side by side).
func otherArch(file string) bool {
	arches := map[string]string{"amd64": "x86_64", "386": "i686", "arm64": "aarch64", "arm": "armv7l"}
	mine := arches[runtime.GOARCH]
	for _, a := range arches {
		if a != mine && strings.Contains(file, "."+a+".") {
			return true
		}
	}
	return false
}
