// Package findings embeds the project's own findings as known failures:
// known.txt, one campaign signature or pattern per finding under this
// directory (the case files beside it are the findings themselves; see
// README.md). gpudiff run counts them as known by default
// (campaign.Spec.ProjectFindings), so that a "new bug" is new to the
// project, not a bug the project has already reduced and reported.
//
// It is a leaf (rank 0 in ARCHITECTURE.md "Who imports whom"): go:embed
// reads files only from its own package's directory, which is why the
// list lives in a package here rather than in baseline/.
package findings

import _ "embed"

// Known is known.txt: a text baseline (baseline.Set.AddText format),
// read by campaign.Open.
//
//go:embed known.txt
var Known []byte

// KnownFile is the name Known is read under in error messages.
const KnownFile = "findings/known.txt"
