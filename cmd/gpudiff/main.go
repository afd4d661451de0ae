package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
)

func main() {
	quietWayland()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
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
