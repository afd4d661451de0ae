package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpudiff/gpudiff/campaign"
	"github.com/gpudiff/gpudiff/report"
)

// mergeFlags are merge's outputs.
type mergeFlags struct {
	report, junit, html, corpus, log string
}

func newMergeCmd() *cobra.Command {
	var fl mergeFlags
	cmd := &cobra.Command{
		Use:     "merge [--report OUT.json] [--junit OUT.xml] [--html OUT.html] [--corpus DIR] [--log OUT.jsonl] SHARD.jsonl...",
		Short:   "Merge the journals of a campaign run in shards (--shard I/N) into the campaign one machine would have run",
		Long:    helpText("merge"),
		Example: helpText("merge.example"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("gpudiff merge: give the journals of every shard (written by gpudiff run --shard I/N --log FILE)\nRun 'gpudiff merge --help' for usage.")
			}
			return runMerge(fl, args, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.report, "report", "", "write the merged campaign's JSON report (run's --report) to this file")
	f.StringVar(&fl.junit, "junit", "", "write the merged campaign's JUnit XML (run's --junit) to this file")
	f.StringVar(&fl.html, "html", "", "write the merged campaign's HTML page (run's --html; pictures from the case files copied to --corpus) to this file")
	f.StringVar(&fl.corpus, "corpus", "", "copy the merged campaign's case files into this directory (one per signature)")
	f.StringVar(&fl.log, "log", "", "write the merged campaign's journal (one record per program, in order) to this file")
	return cmd
}

// runMerge merges the shard journals and writes the outputs, each
// atomically, once every input has been checked (cases included).
func runMerge(fl mergeFlags, journals []string, stdout, stderr io.Writer) error {
	m, err := campaign.MergeJournals(journals)
	if err != nil {
		return usagef("gpudiff merge: %v", err)
	}
	if ch := m.DriverChanges(); len(ch) > 0 {
		fmt.Fprintf(stderr, "gpudiff merge: note: shards ran on other drivers than %s, whose drivers the merged report names (%s)\n", journals[0], strings.Join(ch, "; "))
	}
	if fl.corpus != "" {
		if err := m.CheckCases(); err != nil {
			return usagef("gpudiff merge: %v", err)
		}
	}
	h := m.Header
	h.Corpus, h.Report, h.JUnit, h.HTML = fl.corpus, fl.report, fl.junit, fl.html
	sum := m.Summary
	ran := report.CampaignRun{Tool: "gpudiff " + h.Tool, Drivers: h.Drivers} // the first shard's (shards may differ)
	if fl.corpus != "" {
		if err := m.CopyCases(fl.corpus); err != nil {
			return usagef("gpudiff merge: --corpus: %v", err)
		}
	}
	if fl.log != "" {
		if err := m.WriteJournal(fl.log, h); err != nil {
			return usagef("gpudiff merge: --log: %v", err)
		}
	}
	if err := writeOutputs("merge", report.CampaignOutputs(h, ran, sum)); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "merged %d shards of %s\n", len(m.Shards), m.ShardList())
	report.WriteCampaignSummary(stdout, h, ran, sum)
	return newBugs("merge", sum)
}
