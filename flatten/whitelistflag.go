package flatten

import (
	"fmt"
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// WhitelistFlag is gpudiff's --whitelist flag (a pflag.Value): the
// builtins flatten keeps as leaves (Options.Whitelist). Unset, it is nil and flatten takes
// DefaultWhitelist(); given, it is the exact list (an empty value
// allows no builtin). Every name must be a builtin the IR knows (WGSL
// "Built-in Functions"): an unknown name is a usage error, not a silently
// ignored entry.
type WhitelistFlag struct {
	names []string
	set   bool
}

// String is the builtins given, comma-separated.
func (w *WhitelistFlag) String() string { return strings.Join(w.names, ",") }

// Type names the flag's value in a usage line.
func (w *WhitelistFlag) Type() string { return "builtins" }

// Set takes a comma-separated list of builtins (blanks ignored).
func (w *WhitelistFlag) Set(s string) error {
	names := []string{}
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if _, ok := ir.LookupBuiltin(n); !ok {
			return fmt.Errorf("--whitelist: %q is not a WGSL builtin gpudiff knows", n)
		}
		names = append(names, n)
	}
	w.names, w.set = names, true
	return nil
}

// Whitelist is the flag's value for Options.Whitelist: nil when
// the flag was not given.
func (w *WhitelistFlag) Whitelist() []string {
	if !w.set {
		return nil
	}
	return w.names
}
