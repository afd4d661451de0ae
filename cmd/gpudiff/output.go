package main

import (
	"io"

	"github.com/gpudiff/gpudiff/fuzz"
)

// writeOutput writes data to path atomically (fuzz.WriteFileAtomic), or to
// w when path is empty. A failure leaves no partial file behind.
func writeOutput(w io.Writer, path string, data []byte) error {
	if path == "" {
		_, err := w.Write(data)
		return err
	}
	if err := fuzz.WriteFileAtomic(path, data); err != nil {
		return usagef("gpudiff: %v", err)
	}
	return nil
}
