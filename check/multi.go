package check

import (
	"fmt"
	"path/filepath"
	"strings"
)

// EachCasePath is where exec --save-case PATH writes entry point entry's
// case when a module's entry points run in turn, given its exit class: ""
// (no case) for a pass or without PATH, else PATH with the entry point's
// name before its extension (out.wgsl → out.main.wgsl; without one,
// PATH.main.wgsl).
func EachCasePath(path, entry string, exit Exit) string {
	ext := filepath.Ext(path)
	switch {
	case path == "" || exit == ExitPass:
		return ""
	case ext == "":
		return fmt.Sprintf("%s.%s.wgsl", path, entry)
	}
	return strings.TrimSuffix(path, ext) + "." + entry + ext
}
