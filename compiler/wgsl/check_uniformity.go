package wgsl

import (
	"strings"

	"github.com/gpudiff/gpudiff/ir"
)

// Uniformity analysis (WGSL #uniformity): the analysis itself is ir's
// (ir/uniformity.go), which flatten shares; the front end runs it on the
// module it built and reports its failures.

func (mc *chkModule) checkUniformity(m *ir.Module) {
	u := ir.Uniformity(m, ir.UniformityOptions{DerivativeError: mc.derivSeverity == "error", SubgroupError: mc.subgroupSeverity == "error"})
	for _, e := range u.Errors {
		if !mc.diags.full() {
			mc.diags.list = append(mc.diags.list, e)
		}
	}
}

// uniRuleIsError reports whether a uniformity triggering rule
// (derivative_uniformity, subgroup_uniformity) is at error severity in a
// module: no global diagnostic directive lowers it.
func uniRuleIsError(m *ir.Module, rule string) bool {
	for _, o := range m.Opaque {
		if o.Kind != "diagnostic" || !strings.Contains(o.Text, rule) {
			continue
		}
		inner := o.Text[strings.Index(o.Text, "(")+1:]
		sev := strings.TrimSpace(strings.SplitN(inner, ",", 2)[0])
		return sev == "error"
	}
	return true
}
