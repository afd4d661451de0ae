// Package report renders gpudiff's results, the last stage of its data flow
// (ARCHITECTURE.md "Data flow"): it turns values the other stages produced
// into what people and CI read.
//
//   - exec and repro (WriteExecTable, WriteExecJSON, ExecVerdict): one
//     case's check.Result as a table per invocation or as exec's JSON
//     document, with repro's check.ReplayOutcome;
//   - campaigns (WriteCampaignSummary, WriteBugs,
//     CampaignReport/WriteCampaignJSON, WriteCampaignJUnit,
//     WriteCampaignHTML, Digest): a campaign.Summary as run's summary table
//     and per-bug lines, its --report JSON, its JUnit XML and its --html
//     page (each bug once, with pictures of its saved case), each
//     describing the campaign by its campaign.Spec and CampaignRun (the
//     writing gpudiff, the drivers as run);
//   - the driver matrix (WriteDriversText, WriteDriversHTML,
//     WriteDriversJUnit, WriteDriversJSON): a drivers Report for a
//     terminal, as one self-contained HTML page (each divergence beside
//     its run's picture, the case's reference once), as JUnit XML and as
//     JSON;
//   - pictures (RunPicture, EntryPicture, ResultPictures, EntryPictures):
//     a run's outputs as a PNG, a grid coloured by value (gonum's Kindlmann
//     colour map) with disagreeing cells framed red, indeterminate ones
//     hatched, and a legend (basicfont text); exec --png writes them, the
//     run and drivers HTML pages embed them;
//   - the viewer's model (Viewer, View, ResultViews, EntryViews): the
//     pictures of one case's runs, one at a time, chosen by keys along
//     stage, adapter, function and format, and the text of a clicked cell
//     (PictureCellAt, EntryPictureCellAt); `gpudiff view` shows them
//     through harness/window;
//   - report/amber: a case as an Amber script for driver engineers.
//
// Tables use go-pretty, JUnit go-junit-report's junit package; the HTML is
// an html/template.
//
// Every renderer takes values and an io.Writer (or returns text) and
// returns the writer's error. report never runs a case, opens an adapter,
// judges or attributes a run (check, oracle, drivers do), reads the
// terminal or the environment (the caller says whether to colour), or
// decides where a file goes or how it is written (the caller writes the
// bytes, atomically, where the flags say).
package report
