package main

import (
	"os"
	"path/filepath"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/report"
)

// pictureDir creates exec's --png directory (and its parents) before any
// run, so that a directory that cannot be made is a usage error (exit 2)
// and costs no dispatch. An empty dir is no --png.
func pictureDir(dir string) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return usagef("gpudiff exec: --png: %v", err)
	}
	return nil
}

// writePictures writes each picture to dir/FILE atomically
// (check.WriteFileAtomic).
func writePictures(dir string, pics []report.NamedPicture) error {
	if dir == "" {
		return nil
	}
	for _, p := range pics {
		if err := check.WriteFileAtomic(filepath.Join(dir, p.File), p.PNG); err != nil {
			return usagef("gpudiff exec: --png: %v", err)
		}
	}
	return nil
}
