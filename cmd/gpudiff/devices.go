package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/gpudiff/gpudiff/fuzz"
	"github.com/gpudiff/gpudiff/harness"
	_ "github.com/gpudiff/gpudiff/harness/dawn" // registers Dawn (Tint) adapters when its npm package is installed
	"github.com/gpudiff/gpudiff/harness/worker"
)

// device is an opened adapter: a wgpu adapter behind an isolated worker
// process, or another implementation's (Dawn runs in its own node process).
type device interface {
	fuzz.Device
	Close()
}

// openDevices opens the adapters that sels select (harness.Select rules;
// none: the first Vulkan adapter). wgpu adapters run in worker processes
// (harness/worker): a crash or hang of the driver costs that dispatch a
// "crash" or "timeout" verdict and a worker restart, never the run. timeout
// bounds each dispatch (0: 30 s). Implementations that cannot list their
// adapters here (e.g. Dawn without its npm package) are reported on warn
// and skipped.
func openDevices(sels []string, timeout time.Duration, warn io.Writer) ([]fuzz.Device, func(), error) {
	all, err := harness.AllAdapters()
	if len(all) == 0 {
		return nil, nil, err
	}
	if err != nil && warn != nil {
		var ie *harness.ImplementationError
		if errors.As(err, &ie) && wantsImplementation(sels, ie.Implementation) {
			fmt.Fprintf(warn, "gpudiff: warning: %v\n", err)
		}
	}
	sel, err := harness.Select(all, sels)
	if err != nil {
		return nil, nil, err
	}
	var opened []device
	closeAll := func() {
		for _, d := range opened {
			d.Close()
		}
	}
	var logMu sync.Mutex
	for _, a := range sel {
		var d device
		if a.Implementation == "wgpu" {
			opts := worker.Options{Timeout: timeout}
			if harness.LogEnabled() && warn != nil {
				// wgpu-native logs to the worker's stderr, which the
				// parent otherwise keeps only for crash reports.
				opts.Stderr = &prefixWriter{mu: &logMu, w: warn, prefix: "[" + a.Name + "] "}
			}
			d, err = worker.Start(a.Name, opts)
		} else {
			d, err = harness.OpenAny(a.Name)
		}
		if err != nil {
			closeAll()
			return nil, nil, fmt.Errorf("%s: %w", a.Name, err)
		}
		opened = append(opened, d)
	}
	devs := make([]fuzz.Device, len(opened))
	for i, d := range opened {
		devs[i] = d
	}
	return devs, closeAll, nil
}

// wantsImplementation reports whether the selectors could name an adapter
// of impl (so a failure to list it deserves a warning).
func wantsImplementation(sels []string, impl string) bool {
	for _, s := range sels {
		if s == "all" || len(s) >= len(impl) && s[:len(impl)] == impl {
			return true
		}
	}
	return false
}

// prefixWriter copies complete lines to w, each after prefix; writers that
// share mu share w without interleaving inside a line (and one writer may
// be used by several goroutines: a restarted worker's stderr and its
// predecessor's). A last line without a newline is held until its newline
// arrives.
type prefixWriter struct {
	mu      *sync.Mutex
	w       io.Writer
	prefix  string
	partial []byte
}

func (p *prefixWriter) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.partial = append(p.partial, b...)
	i := bytes.LastIndexByte(p.partial, '\n')
	if i < 0 {
		return len(b), nil
	}
	var out bytes.Buffer
	for _, line := range bytes.SplitAfter(p.partial[:i+1], []byte("\n")) {
		if len(line) > 0 {
			out.WriteString(p.prefix)
			out.Write(line)
		}
	}
	p.partial = append(p.partial[:0], p.partial[i+1:]...)
	if _, err := p.w.Write(out.Bytes()); err != nil {
		return 0, err
	}
	return len(b), nil
}
