package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
)

// main runs the command line. The first SIGINT or SIGTERM cancels the
// command's context with an interruption as its cause: a campaign stops
// after the programs being judged, writes its report marked interrupted
// and exits 130 (SIGINT) or 143 (SIGTERM). A second signal exits at once
// with that status (the journal, fsynced per record, stays resumable).
func main() {
	quietWayland()
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sigs
		cancel(interruption{s})
		s = <-sigs
		fmt.Fprintf(os.Stderr, "gpudiff: %v again: stopping now\n", interruption{s})
		os.Exit(128 + int(s.(syscall.Signal)))
	}()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	signal.Stop(sigs)
	os.Exit(code)
}

// quietWayland gives wgpu's Wayland probe a private runtime directory when
// none is set (headless CI), so it does not print "XDG_RUNTIME_DIR is
// invalid or not set" into every run's stderr. Workers inherit it.
func quietWayland() {
	if os.Getenv("XDG_RUNTIME_DIR") != "" {
		return
	}
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("gpudiff-xdg-%d", os.Getuid()))
	if err := os.MkdirAll(dir, 0o700); err == nil {
		os.Setenv("XDG_RUNTIME_DIR", dir)
	}
}
