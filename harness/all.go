package harness

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Runner is an opened adapter of any implementation: the method set of
// *Device, which other implementations' devices (*dawn.Device) share, so
// callers treat them alike. Its methods keep Device's contracts: Run
// returns the output bytes, a *CompileError when the stack rejects the
// kernel, a *DeviceError when the device, dispatch or readback fails; Close
// is safe to call more than once.
type Runner interface {
	Info() AdapterInfo
	Run(ctx context.Context, k Kernel, job Dispatch) ([]byte, error)
	Close()
}

var _ Runner = (*Device)(nil)

// Implementation is a WebGPU implementation other than wgpu-native, driven
// by a package that registers it (harness/dawn registers "dawn" when it is
// imported), so that harness itself needs no code of that implementation.
type Implementation struct {
	// Name is the implementation's name, the prefix of its adapters'
	// names and their AdapterInfo.Implementation ("dawn").
	Name string
	// Adapters lists the implementation's adapters, named and ordered by
	// NameAdapters. An error means the implementation cannot run here
	// (e.g. a missing tool); no adapters at all is not an error.
	Adapters func() ([]AdapterInfo, error)
	// Open opens the adapter with the given Name, one that Adapters
	// returned.
	Open func(name string) (Runner, error)
}

var (
	implMu sync.Mutex
	impls  []Implementation
)

// RegisterImplementation makes impl's adapters part of AllAdapters and
// OpenAny, after wgpu's and those of implementations registered before it.
// Registering "wgpu", an empty name or a name twice is a programming error
// and panics.
func RegisterImplementation(impl Implementation) {
	implMu.Lock()
	defer implMu.Unlock()
	if impl.Name == "" || impl.Name == implWGPU || impl.Adapters == nil || impl.Open == nil {
		panic(fmt.Sprintf("harness: RegisterImplementation(%q): need a new name other than %q, Adapters and Open", impl.Name, implWGPU))
	}
	if slices.ContainsFunc(impls, func(i Implementation) bool { return i.Name == impl.Name }) {
		panic(fmt.Sprintf("harness: implementation %q registered twice", impl.Name))
	}
	impls = append(impls, impl)
}

func registered() []Implementation {
	implMu.Lock()
	defer implMu.Unlock()
	return slices.Clone(impls)
}

// ImplementationError reports that a registered implementation could not
// list its adapters (AllAdapters, OpenAny).
type ImplementationError struct {
	Implementation string
	Err            error
}

func (e *ImplementationError) Error() string {
	return fmt.Sprintf("harness: %s adapters unavailable: %v", e.Implementation, e.Err)
}

func (e *ImplementationError) Unwrap() error { return e.Err }

// AllAdapters lists the adapters of every implementation: wgpu's (Adapters)
// first, then each registered implementation's (RegisterImplementation) in
// registration order, each in its own Adapters order. On a machine with no
// GPU, `make deps` done and harness/dawn imported that is
// wgpu-vulkan:llvmpipe, wgpu-vulkan:llvmpipe-mesa25,
// wgpu-vulkan:swiftshader, wgpu-gl:llvmpipe, wgpu-gl:llvmpipe-mesa25,
// dawn-vulkan:swiftshader, dawn-gl:llvmpipe and dawn-gles:llvmpipe (and
// whatever the other implementations find in the driver sets).
//
// When an implementation cannot list its adapters, AllAdapters returns the
// adapters of the others together with an *ImplementationError for each
// that failed (joined), and a *DriverSetError for each driver set whose
// wgpu adapters could not be listed (Adapters); it returns an error with no
// adapters only when none is found at all.
func AllAdapters() ([]AdapterInfo, error) {
	var all []AdapterInfo
	var errs []error
	infos, err := Adapters()
	all = infos
	var dse *DriverSetError
	if errors.As(err, &dse) && len(infos) > 0 {
		errs = append(errs, err) // a set that could not list its adapters
	}
	for _, impl := range registered() {
		infos, err := impl.Adapters()
		if err != nil {
			errs = append(errs, &ImplementationError{Implementation: impl.Name, Err: err})
			continue
		}
		all = append(all, infos...)
	}
	if len(all) == 0 {
		errs = append(errs, errNoAdapters)
	}
	remember(all)
	return all, errors.Join(errs...)
}

var (
	setOpenerMu sync.Mutex
	setOpener   func(name string) (Runner, error)
)

// RegisterDriverSetOpener sets how OpenAny opens a wgpu adapter of another
// driver set than this process's (DriverSets: "wgpu-vulkan:llvmpipe-mesa25"),
// which Open cannot load in-process: package harness/worker registers a
// worker process started with the set's Env. The last registration wins.
func RegisterDriverSetOpener(open func(name string) (Runner, error)) {
	setOpenerMu.Lock()
	defer setOpenerMu.Unlock()
	setOpener = open
}

// OpenAny opens the adapter of any implementation that name designates (as
// Lookup resolves it among AllAdapters: a Name, an alias of a wgpu adapter,
// or an unambiguous prefix): wgpu's through Open, a registered
// implementation's through its Open; a wgpu adapter of another driver set
// (AdapterInfo.DriverSet) through the opener harness/worker registers
// (RegisterDriverSetOpener: a worker process with the set's Env). An
// unknown name returns
// *UnknownAdapterError, joined with the reasons of implementations that
// could not list their adapters; an ambiguous one *AmbiguousAdapterError.
func OpenAny(name string) (Runner, error) {
	all, listErr := AllAdapters()
	info, err := Lookup(all, name)
	if err != nil {
		return nil, errors.Join(err, listErr)
	}
	if info.Implementation == implWGPU && info.DriverSet != CurrentDriverSet() {
		setOpenerMu.Lock()
		open := setOpener
		setOpenerMu.Unlock()
		if open == nil {
			return nil, fmt.Errorf("harness: adapter %s is in driver set %s, which needs a worker process: import package harness/worker (it registers the opener)", info.Name, info.DriverSet)
		}
		return open(info.Name)
	}
	if info.Implementation == implWGPU {
		d, err := Open(info.Name)
		if err != nil {
			return nil, err // not a nil *Device in a non-nil Runner
		}
		return d, nil
	}
	for _, impl := range registered() {
		if impl.Name == info.Implementation {
			return impl.Open(info.Name)
		}
	}
	return nil, fmt.Errorf("harness: adapter %s: implementation %q is not registered", info.Name, info.Implementation)
}
