package dawn

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gpudiff/gpudiff/harness"
)

// DenoImplementation is the AdapterInfo.Implementation of Deno's adapters
// and the prefix of their names: Deno's built-in WebGPU, which is wgpu-core
// with naga as its shader compiler — a current wgpu beside the wgpu-native
// 0.19 that package harness links.
const DenoImplementation = "deno"

// DenoEnv names the deno binary to run (default: the npm package deno's
// binary in the nearest node_modules, as ModulesEnv finds them, else deno
// in PATH).
const DenoEnv = "GPUDIFF_DENO"

const denoInstallHint = "run `make deps` (it runs `npm ci` in the module root, where package.json pins the npm package deno)"

func init() {
	harness.RegisterImplementation(harness.Implementation{
		Name:     DenoImplementation,
		Adapters: DenoAdapters,
		Open: func(name string) (harness.Runner, error) {
			d, err := OpenDeno(name)
			if err != nil {
				return nil, err
			}
			return d, nil
		},
	})
}

var denoTools struct {
	sync.Mutex
	t   tools
	err error
	ok  bool
}

// locateDeno finds the deno binary and reads its version (once per
// process).
func locateDeno() (tools, error) {
	denoTools.Lock()
	defer denoTools.Unlock()
	if !denoTools.ok {
		denoTools.t, denoTools.err = findDeno()
		denoTools.ok = true
	}
	return denoTools.t, denoTools.err
}

func findDeno() (tools, error) {
	var t tools
	var candidates []string
	if p := os.Getenv(DenoEnv); p != "" {
		candidates = []string{p}
	} else {
		for _, dir := range modulesDirs() {
			// The npm package deno's postinstall puts the binary in the
			// package; the per-platform package holds it too.
			candidates = append(candidates, filepath.Join(dir, "deno", "deno"), filepath.Join(dir, "@deno", "linux-x64-glibc", "deno"))
		}
		candidates = append(candidates, "deno")
	}
	for _, c := range candidates {
		path, err := exec.LookPath(c)
		if err != nil {
			continue
		}
		t.deno = path
		v, err := denoVersion(path)
		if err != nil {
			return t, fmt.Errorf("%w: %s: %v: %s", ErrNotInstalled, path, err, denoInstallHint)
		}
		t.version, t.implVersion = v.deno, v.String()
		return t, nil
	}
	where := "at " + DenoEnv + "=" + os.Getenv(DenoEnv)
	if os.Getenv(DenoEnv) == "" {
		where = "in any node_modules above the working directory or " + harness.SourceDir() + ", nor in PATH"
	}
	return t, fmt.Errorf("%w: deno (the npm package deno, Deno's WebGPU) not found %s: %s", ErrNotInstalled, where, denoInstallHint)
}

// denoIdentity is what a deno binary is: its own version and those of the
// wgpu crates it was built with.
type denoIdentity struct {
	deno, wgpuCore, naga string
}

// String is the ImplementationVersion: "deno 2.9.6 (wgpu-core 29.0.1, naga
// 29.0.3)".
func (v denoIdentity) String() string {
	var parts []string
	if v.wgpuCore != "" {
		parts = append(parts, "wgpu-core "+v.wgpuCore)
	}
	if v.naga != "" {
		parts = append(parts, "naga "+v.naga)
	}
	if len(parts) == 0 {
		return "deno " + v.deno
	}
	return "deno " + v.deno + " (" + strings.Join(parts, ", ") + ")"
}

var denoVersionLine = regexp.MustCompile(`^deno (\S+)`)

// crates are the crates whose versions denoVersion reads.
var crates = []string{"wgpu-core", "naga"}

// denoVersion runs `deno --version` and reads the versions of wgpu-core and
// naga from the crate source paths the binary carries (Rust keeps
// ".../wgpu-core-29.0.1/src/..." for panic messages): the most frequent
// version of each, as a binary may also carry a crate's older copy for
// another dependency.
func denoVersion(path string) (denoIdentity, error) {
	var v denoIdentity
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, path, "--version").Output()
	if err != nil {
		return v, fmt.Errorf("deno --version: %w", err)
	}
	m := denoVersionLine.FindSubmatch(out)
	if m == nil {
		return v, fmt.Errorf("deno --version printed %.100q", out)
	}
	v.deno = string(m[1])
	counts, err := scanCrateVersions(path, crates)
	if err != nil {
		return v, err
	}
	v.wgpuCore, v.naga = mostFrequent(counts["wgpu-core"]), mostFrequent(counts["naga"])
	return v, nil
}

// scanCrateVersions is crateVersions over the file at path, read in 4 MiB
// chunks that overlap by more than any "<crate>-X.Y.Z/" (the deno binary
// is 95 MB; holding it whole would cost every listing process that much
// memory). A match is counted in the chunk where it starts before the
// overlap, or in the last chunk.
func scanCrateVersions(path string, crates []string) (map[string]map[string]int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	const chunk, overlap = 4 << 20, 64
	counts := map[string]map[string]int{}
	buf := make([]byte, 0, chunk+overlap)
	for {
		n, err := io.ReadFull(f, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		last := err != nil
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, err
		}
		limit := len(buf) - overlap
		if last || limit < 0 {
			limit = len(buf)
		}
		for crate, vs := range crateVersionsBefore(buf, crates, limit) {
			if counts[crate] == nil {
				counts[crate] = map[string]int{}
			}
			for ver, c := range vs {
				counts[crate][ver] += c
			}
		}
		if last {
			return counts, nil
		}
		buf = append(buf[:0], buf[limit:]...)
	}
}

// crateVersions counts, per crate, the versions in "<crate>-X.Y.Z/" paths
// found in bin (a literal search: a regular expression over a 95 MB
// binary takes seconds).
func crateVersions(bin []byte, crates []string) map[string]map[string]int {
	return crateVersionsBefore(bin, crates, len(bin))
}

// crateVersionsBefore is crateVersions counting only the paths that start
// before offset limit.
func crateVersionsBefore(bin []byte, crates []string, limit int) map[string]map[string]int {
	counts := map[string]map[string]int{}
	for _, crate := range crates {
		prefix := []byte(crate + "-")
		for at := 0; ; {
			i := bytes.Index(bin[at:], prefix)
			if i < 0 || at+i >= limit {
				break
			}
			at += i + len(prefix)
			if ver, ok := semver(bin[at:]); ok {
				if counts[crate] == nil {
					counts[crate] = map[string]int{}
				}
				counts[crate][ver]++
			}
		}
	}
	return counts
}

// semver reads "X.Y.Z/" at the start of b and returns "X.Y.Z".
func semver(b []byte) (string, bool) {
	dots, n := 0, 0
	for n < len(b) && n < 32 {
		switch c := b[n]; {
		case c >= '0' && c <= '9':
		case c == '.' && n > 0 && b[n-1] != '.':
			dots++
		case c == '/' && dots == 2 && b[n-1] != '.':
			return string(b[:n]), true
		default:
			return "", false
		}
		n++
	}
	return "", false
}

// mostFrequent is the key with the highest count ("" for none).
func mostFrequent(m map[string]int) string {
	best, n := "", 0
	for k, c := range m {
		if c > n || c == n && k > best {
			best, n = k, c
		}
	}
	return best
}

// denoConfig is one way to start Deno on one driver: the environment
// that selects it.
type denoConfig struct {
	set harness.DriverSet
	env []string // the set's Env plus DENO_WEBGPU_BACKEND and VK_ICD_FILENAMES
}

// denoConfigs lists a process configuration per driver Deno could reach:
// for every driver set, each of its Vulkan ICDs alone (Deno opens the
// loader's first adapter) and its GL driver.
func denoConfigs() []denoConfig {
	var out []denoConfig
	for _, set := range harness.DriverSets() {
		for _, icd := range set.VulkanICDs {
			// VK_DRIVER_FILES is the loader's newer name and wins over
			// VK_ICD_FILENAMES: both name the one ICD.
			env := append(slices.Clone(set.Env), "DENO_WEBGPU_BACKEND=vulkan", "VK_ICD_FILENAMES="+icd, "VK_DRIVER_FILES="+icd, "VK_ADD_DRIVER_FILES=")
			out = append(out, denoConfig{set: set, env: env})
		}
		out = append(out, denoConfig{set: set, env: append(slices.Clone(set.Env), "DENO_WEBGPU_BACKEND=gl")})
	}
	return out
}

var denoListing = &listing{find: findDenoAdapters}

// DenoAdapters lists the adapters Deno's WebGPU offers on this machine,
// named and ordered by harness.NameAdapters: on a machine with no GPU after
// `make deps`, deno-vulkan:llvmpipe, deno-vulkan:swiftshader and
// deno-gl:llvmpipe, plus the same for each extra driver set
// (harness.DriverSets; deno-vulkan:llvmpipe-mesa25, deno-gl:llvmpipe-mesa25).
// Deno can neither enumerate adapters nor choose a backend through its API,
// so each is found by a deno process of its own, started with one Vulkan
// ICD (VK_ICD_FILENAMES) or the GL backend (DENO_WEBGPU_BACKEND=gl); the
// processes run in parallel (about 0.5 s in all here). The driver fields
// come from wgpu's adapter of the same driver (harness.Adapters), since
// Deno reports only the device name.
//
// The first successful call does the listing; later calls return the same
// list. Errors wrap ErrNotInstalled when deno is missing; finding no
// adapter is not an error.
func DenoAdapters() ([]harness.AdapterInfo, error) { return denoListing.infos() }

// findDenoAdapters runs a deno process per denoConfigs entry and names what
// they find.
func findDenoAdapters() ([]adapter, error) {
	t, err := locateDeno()
	if err != nil {
		return nil, err
	}
	configs := denoConfigs()
	type found struct {
		wire []wireAdapter
		err  error
	}
	results := make([]found, len(configs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, c := range configs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i].wire, results[i].err = listWire(t, c.env)
		}()
	}
	wg.Wait()
	wgpu, _ := harness.Adapters() // for the driver fields; none is not an error
	var unnamed []harness.AdapterInfo
	var from []adapter
	var errs []error
	for i, r := range results {
		if r.err != nil {
			errs = append(errs, r.err)
			continue
		}
		for _, w := range r.wire {
			info := w.info(t)
			info.DriverSet = configs[i].set.Name
			info = withWGPUDriver(info, w, wgpu)
			unnamed = append(unnamed, info)
			from = append(from, adapter{info: info, wire: w, env: configs[i].env})
		}
	}
	if len(unnamed) == 0 && len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return nameAll(unnamed, from), nil
}

// withWGPUDriver fills info's vendor and driver fields from wgpu's adapter
// on the same driver (same driver set, backend family and device name),
// which harness reads from the native API (harness/driverid). Deno's
// adapter info has the device name and a numeric vendor id only.
func withWGPUDriver(info harness.AdapterInfo, w wireAdapter, wgpu []harness.AdapterInfo) harness.AdapterInfo {
	if id, err := strconv.ParseUint(w.Vendor, 10, 32); err == nil {
		info.VendorID = uint32(id)
		if dev, err := strconv.ParseUint(w.Device, 10, 32); err == nil {
			info.DeviceID = uint32(dev)
		}
	}
	for _, a := range wgpu {
		if a.DriverSet == info.DriverSet && harness.BackendFamily(a.Backend) == harness.BackendFamily(info.Backend) &&
			a.Device == info.Device && (info.VendorID == 0 || a.VendorID == 0 || a.VendorID == info.VendorID) {
			info.Vendor, info.Type = a.Vendor, cmp.Or(a.Type, info.Type)
			info.VendorID, info.DeviceID = cmp.Or(info.VendorID, a.VendorID), cmp.Or(info.DeviceID, a.DeviceID)
			info.Driver, info.DriverVersion, info.DriverInfo, info.DriverConformance = a.Driver, a.DriverVersion, a.DriverInfo, a.DriverConformance
			return info
		}
	}
	if info.VendorID != 0 && (info.Vendor == w.Vendor || info.Vendor == "") {
		info.Vendor = fmt.Sprintf("%#x", info.VendorID)
	}
	return info
}

// OpenDeno opens the Deno adapter that name designates (its name as
// DenoAdapters reports it, or an unambiguous prefix such as "deno-gl"; see
// harness.Lookup) and starts its worker, a deno process on that adapter's
// driver, which requests a device with the adapter's own buffer, binding
// and compute limits as Open does for Dawn. The *Device is the same type
// as Dawn's, with the same contract (WGSL only: ErrNoSPIRV). Errors:
// *harness.UnknownAdapterError or *harness.AmbiguousAdapterError for the
// name, an error wrapping ErrNotInstalled when deno is missing,
// *harness.DeviceError (Op "open") when the worker cannot get the device.
func OpenDeno(name string) (*Device, error) { return openIn(denoListing, locateDeno, name) }
