//go:build !glfw

package main

import (
	"context"
	"io"

	"github.com/gpudiff/gpudiff/report"
)

// viewerBuilt: this build has no viewer (build tag glfw); view exits 2
// saying how to build one.
const viewerBuilt = false

func showViewer(context.Context, *report.Viewer, string, bool, io.Writer) error {
	return usagef("gpudiff view: built without the viewer")
}
