package check

import (
	"fmt"

	"github.com/gpudiff/gpudiff/oracle"
)

// ParseStages parses the stages a case's GPU runs are made in
// (Options.Stages) as the --stage option of exec, run and drivers spells
// them: "compute", "fragment" or "both" (compute, then fragment). The
// error names the stages it takes.
func ParseStages(s string) ([]oracle.Stage, error) {
	if s == "both" {
		return []oracle.Stage{oracle.StageCompute, oracle.StageFragment}, nil
	}
	st, err := oracle.ParseStage(s)
	if err != nil {
		return nil, fmt.Errorf("%v, or \"both\"", err)
	}
	return []oracle.Stage{st}, nil
}
