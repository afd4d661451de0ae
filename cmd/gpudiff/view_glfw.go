//go:build glfw

package main

import (
	"context"
	"fmt"
	"io"

	"github.com/gpudiff/gpudiff/check/testcase"
	"github.com/gpudiff/gpudiff/harness/window"
	"github.com/gpudiff/gpudiff/report"
)

// viewerBuilt: this build has the viewer (harness/window).
const viewerBuilt = true

// showViewer shows v in a window until q, Esc, closing it or ctx's end
// (quit: once its first frame is on screen); with screenshot set it
// writes the first frame there as a PNG instead (the window never shown).
func showViewer(ctx context.Context, v *report.Viewer, screenshot string, quit bool, stdout io.Writer) error {
	img := v.Image()
	w, h := window.WindowSize(img.Bounds().Dx(), img.Bounds().Dy())
	win, err := window.Open(window.Options{Title: v.Title(), Width: w, Height: h, Hidden: screenshot != ""})
	if err != nil {
		return usagef("gpudiff view: %v", err)
	}
	defer win.Close()
	if err := win.SetImage(img); err != nil {
		return usagef("gpudiff view: %v", err)
	}
	if screenshot != "" {
		shot, err := win.Screenshot()
		if err != nil {
			return usagef("gpudiff view: --screenshot: %v", err)
		}
		if err := testcase.WriteFileAtomic(screenshot, report.PNGBytes(shot)); err != nil {
			return usagef("gpudiff view: --screenshot: %v", err)
		}
		fmt.Fprintf(stdout, "wrote %s: %s, %d×%d\n", screenshot, v.Current().Line(), shot.Bounds().Dx(), shot.Bounds().Dy())
		return nil
	}
	fmt.Fprintf(stdout, "showing %s\nkeys: %s\n", v.Current().Line(), report.ViewKeys)
	if quit {
		if err := win.Present(); err != nil {
			return usagef("gpudiff view: %v", err)
		}
		return nil
	}
	if err := win.Run(ctx, &viewHandler{Viewer: v, win: win, out: stdout}); err != nil && ctx.Err() == nil {
		return usagef("gpudiff view: %v", err)
	}
	return nil
}

// viewHandler turns the window's keys and clicks into the viewer's.
type viewHandler struct {
	*report.Viewer // its Hover titles the window (window.Hoverer)
	win            *window.Window
	out            io.Writer
}

func (h *viewHandler) Key(r rune) bool {
	res := h.Viewer.Key(r)
	switch {
	case res.Quit:
		return true
	case res.Changed:
		if err := h.win.SetImage(h.Viewer.Image()); err != nil {
			fmt.Fprintf(h.out, "gpudiff view: %v\n", err)
			return true
		}
		h.win.SetTitle(h.Viewer.Title())
		fmt.Fprintf(h.out, "showing %s\n", h.Viewer.Current().Line())
	case res.Message != "":
		fmt.Fprintln(h.out, res.Message)
	}
	return false
}

func (h *viewHandler) Click(x, y int) {
	if text, ok := h.Viewer.Click(x, y); ok {
		fmt.Fprint(h.out, text)
	}
}
