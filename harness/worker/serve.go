package worker

import (
	"bufio"
	"context"
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/gpudiff/gpudiff/harness"
)

// Serve is the worker side: it reads requests from in, runs them on
// harness.Devices (wgpu adapters) that it opens on first use and keeps open, and writes one
// reply per request to out, until in ends (it then closes its devices and
// returns nil) or ctx ends (it returns ctx.Err() without waiting for a
// request in progress). The hidden "__worker" subcommand of gpudiff and
// test binaries that act as workers (see MarkerEnv) call it with os.Stdin,
// os.Stdout and os.Stderr, and exit non-zero when it returns an error.
//
// Serve owns the process it runs in. When out is os.Stdout, it first moves
// the protocol stream to a duplicate of file descriptor 1 and points
// descriptor 1 at stderr, so that whatever a driver or C library prints to
// stdout lands in stderr instead of corrupting the stream. It reads
// FaultEnv once and injects the faults it names (package doc); a malformed
// FaultEnv is an error before any request is read. It never recovers from
// a crash: a worker that dies is the parent's signal.
//
// Errors: a malformed FaultEnv; a request stream that is not the protocol;
// a write to out that fails; and, after its reply has been written, a
// dispatch whose *harness.DeviceError is Broken (a lost device): the worker
// cannot serve that adapter any more, so it exits and the parent starts a
// fresh one.
func Serve(ctx context.Context, in io.Reader, out io.Writer, stderr io.Writer) error {
	faults, err := parseFaults(os.Getenv(FaultEnv))
	if err != nil {
		return err
	}
	if out, err = protectStdout(out); err != nil {
		return err
	}
	s := &server{enc: gob.NewEncoder(out), stderr: stderr, faults: faults, devices: map[string]*harness.Device{}}

	reqs := make(chan request)
	readErr := make(chan error, 1)
	go func() {
		dec := gob.NewDecoder(bufio.NewReader(in))
		for {
			var r request
			if err := dec.Decode(&r); err != nil {
				readErr <- err
				return
			}
			select {
			case reqs <- r:
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err() // devices may be busy: the process exit frees them
		case err := <-readErr:
			if errors.Is(err, io.EOF) {
				s.closeDevices()
				return nil
			}
			return fmt.Errorf("gpudiff worker: reading request: %w", err)
		case r := <-reqs:
			if err := s.handle(r); err != nil {
				return err
			}
		}
	}
}

// protectStdout returns the writer the protocol should use instead of out.
// For os.Stdout that is a close-on-exec duplicate of descriptor 1, which
// is then pointed at descriptor 2.
func protectStdout(out io.Writer) (io.Writer, error) {
	if f, ok := out.(*os.File); !ok || f != os.Stdout {
		return out, nil
	}
	fd, err := syscall.Dup(1)
	if err != nil {
		return nil, fmt.Errorf("gpudiff worker: dup stdout: %w", err)
	}
	syscall.CloseOnExec(fd)
	if err := syscall.Dup3(2, 1, 0); err != nil {
		return nil, fmt.Errorf("gpudiff worker: redirect stdout to stderr: %w", err)
	}
	return os.NewFile(uintptr(fd), "gpudiff-worker-protocol"), nil
}

// server is Serve's state.
type server struct {
	enc     *gob.Encoder
	stderr  io.Writer
	faults  []fault
	devices map[string]*harness.Device // by adapter name, opened on first use
}

// handle serves one request and writes its reply. It returns an error when
// the worker must stop.
func (s *server) handle(r request) error {
	rep := reply{ID: r.ID}
	var runErr error
	switch r.Op {
	case opOpen:
		d, err := s.device(r.Adapter)
		if err == nil {
			rep.Info = d.Info()
		}
		runErr = err
	case opRun:
		rep.Output, runErr = s.run(r)
	default:
		runErr = fmt.Errorf("gpudiff worker: unknown request op %q", r.Op)
	}
	rep.Err = toWire(runErr)
	if err := s.enc.Encode(&rep); err != nil {
		return fmt.Errorf("gpudiff worker: writing reply: %w", err)
	}
	if rep.Err.broken() {
		return fmt.Errorf("gpudiff worker: %s unusable, exiting: %w", r.Adapter, runErr)
	}
	return nil
}

// device returns the open device of the adapter, opening it on first use.
func (s *server) device(adapter string) (*harness.Device, error) {
	if d := s.devices[adapter]; d != nil {
		return d, nil
	}
	d, err := harness.Open(adapter)
	if err != nil {
		return nil, err
	}
	s.devices[adapter] = d
	return d, nil
}

// run runs one dispatch, injecting the fault its label matches, if any,
// and writes the progress frame that ends the compile phase once the
// pipeline is created (harness.WithCompiled). A fault of the compile phase
// (slow-compile) is injected before the dispatch starts compiling, the
// others once it has compiled. The wait for the GPU is unbounded: the
// parent enforces the time limits by killing the process.
func (s *server) run(r request) ([]byte, error) {
	d, err := s.device(r.Adapter)
	if err != nil {
		return nil, err
	}
	f := matchFault(s.faults, r.Kernel.Label)
	if f != nil && f.compilePhase() {
		if err := inject(f, r.Adapter, r.Kernel.Label, s.stderr); err != nil {
			return nil, err
		}
		f = nil
	}
	var faultErr error
	ctx := harness.WithCompiled(context.Background(), func() {
		// A failed write shows as the reply's failing next.
		_ = s.enc.Encode(&reply{ID: r.ID, Compiled: true})
		if f != nil {
			faultErr = inject(f, r.Adapter, r.Kernel.Label, s.stderr)
		}
	})
	out, err := d.Run(ctx, r.Kernel, r.Dispatch)
	if faultErr != nil {
		return nil, faultErr
	}
	return out, err
}

func (s *server) closeDevices() {
	for _, d := range s.devices {
		d.Close()
	}
}
