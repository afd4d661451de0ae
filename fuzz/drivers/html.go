package drivers

import "io"

// WriteHTML writes the self-contained HTML report.
func WriteHTML(w io.Writer, rep *Report) error { return nil }
