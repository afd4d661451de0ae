package campaign

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gpudiff/gpudiff/check"
	"github.com/gpudiff/gpudiff/check/testcase"
)

// Merging shards (README "Running on many machines").
//
// A campaign split with Config.Shard/Shards over N machines leaves N
// journals, shard I holding the records of the programs i with
// i % N == I. MergeJournals puts them back together into the campaign one
// machine would have run: the records of every shard in program order,
// checked for consistency, and corrected where a single machine's records
// differ from a shard's. They differ in one way only: a campaign saves one
// case file per signature, for the first program (in index order) that
// reaches saveCase with it, and a compile error already saved is recorded
// without being shrunk (finishProgram). Each shard applies that rule to
// its own programs, so a signature met in several shards has a case in
// each. The merged records keep the case of the signature's first program
// over all shards and clear it from the later ones; a later one whose
// signature is a compile error's message signature gets the record of an
// unshrunk program (ShrunkStmts = Stmts), as finishProgram writes it.
// Everything else in a record is a function of its program index and the
// campaign's options (the pipeline's records are those of checking the
// programs one after another), so the merged records, their Summary and
// every report rendered from it equal a single machine's, timing aside.

// ShardJournal is one shard's journal as MergeJournals read it.
type ShardJournal struct {
	Path     string
	Header   Spec
	Records  []ProgramRecord
	Progress JournalProgress
	// Shard and Shards are the header's "I/N".
	Shard, Shards int
}

// CaseSource is a case file of the merged campaign and the shard corpus
// file it is copied from.
type CaseSource struct {
	Name    string // relative to the corpus, as the record names it
	Source  string // the shard's file
	Index   int    // the program whose record names it
	Journal string // the shard journal of that record
}

// Merged is a campaign put back together from its shards' journals.
type Merged struct {
	// Header is the campaign's: the shards' common header with Shard
	// "0/1" and no outputs (Corpus, Report, JUnit are the caller's to
	// set).
	Header Spec
	// Records are every shard's records in program order, with the
	// single machine's case fields (see above).
	Records []ProgramRecord
	// Summary totals Records as RunCampaign does; Elapsed is the longest
	// shard's (the shards ran side by side), Interrupted whether a shard
	// of a Duration campaign did not finish.
	Summary *Summary
	// Cases are the case files the merged records name, one per name, in
	// program order.
	Cases []CaseSource
	// Shards are the inputs, in shard order.
	Shards []ShardJournal
}

// MergeJournals reads the journals of a sharded campaign (ReadJournal; a
// torn last line is left out) and merges them. Every header must describe
// the same campaign (every option equal apart from the shard and the
// outputs, the same gpudiff version) split into the same N shards, every
// shard 0..N-1 must be given exactly once, and each journal must hold
// exactly its shard's programs: for a Count campaign every index
// i < Count with i % N == I, in order, none twice and none missing; for a
// Duration campaign a gapless prefix of them (which programs a duration
// campaign reaches depends on time). An error names the file at fault.
//
// Case files are looked up in each shard's corpus (its header's Corpus; a
// relative one is taken relative to the journal's directory when it is
// there, else to the working directory), so a shard's journal and corpus
// can travel together as one artifact.
func MergeJournals(paths []string) (*Merged, error) {
	if len(paths) == 0 {
		return nil, fmt.Errorf("no shard journals given")
	}
	var shards []ShardJournal
	for _, p := range paths {
		h, recs, prog, _, err := ReadJournal(p)
		if err != nil {
			return nil, err
		}
		i, n, err := ParseShard(h.Shard)
		if err != nil {
			return nil, fmt.Errorf("%s:1: %v", p, err)
		}
		shards = append(shards, ShardJournal{Path: p, Header: h, Records: recs, Progress: prog, Shard: i, Shards: n})
	}
	first := shards[0]
	for _, s := range shards[1:] {
		if err := sameCampaign(first, s); err != nil {
			return nil, err
		}
	}
	n := first.Shards
	byShard := make([]*ShardJournal, n)
	for k := range shards {
		s := &shards[k]
		if prev := byShard[s.Shard]; prev != nil {
			return nil, fmt.Errorf("%s: shard %s is given twice (also %s)", s.Path, s.Header.Shard, prev.Path)
		}
		byShard[s.Shard] = s
	}
	var missing []string
	for i, s := range byShard {
		if s == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("the campaign has %d shards and no journal given is shard %s", n, strings.Join(missing, ", "))
	}
	count := first.Header.Count
	for _, s := range byShard {
		if err := checkShardRecords(s, count); err != nil {
			return nil, err
		}
	}

	m := &Merged{Header: first.Header}
	m.Header.Shard, m.Header.Corpus, m.Header.Report, m.Header.JUnit = "0/1", "", "", ""
	for _, s := range byShard {
		m.Shards = append(m.Shards, *s)
	}
	// The shards' records in program order: index i is shard i % N's
	// (i / N)-th record.
	type at struct {
		rec ProgramRecord
		s   *ShardJournal
	}
	var all []at
	for _, s := range byShard {
		for _, r := range s.Records {
			all = append(all, at{r, s})
		}
	}
	slices.SortFunc(all, func(a, b at) int { return a.rec.Index - b.rec.Index })

	sum := &Summary{Seed: m.Header.Seed, RunsPer: map[string]int{}, Verdicts: map[string]int{}}
	seen := map[string]bool{}  // signatures met by an earlier program
	named := map[string]bool{} // case names already taken
	for _, a := range all {
		r := a.rec
		if r.Signature != "" {
			if seen[r.Signature] {
				// A single machine met it before: no case, and a compile
				// error it does not shrink again.
				r.Case, r.CaseError = "", ""
				if isMessageSignature(r.Signature) {
					r.ShrunkStmts = r.Stmts
				}
			}
			seen[r.Signature] = true
		}
		if r.Case != "" && !named[r.Case] {
			named[r.Case] = true
			m.Cases = append(m.Cases, CaseSource{Name: r.Case, Source: shardCaseFile(a.s, r.Case), Index: r.Index, Journal: a.s.Path})
		}
		m.Records = append(m.Records, r)
		sum.add(r)
	}
	for _, s := range byShard {
		sum.Elapsed = max(sum.Elapsed, s.Progress.Elapsed())
		if count == 0 && !s.Progress.Finished {
			sum.Interrupted = true
		}
	}
	m.Summary = sum
	return m, nil
}

// CheckCases verifies that every case file the merged records name is in
// its shard's corpus, before anything is written.
func (m *Merged) CheckCases() error {
	for _, c := range m.Cases {
		if _, err := os.Stat(c.Source); err != nil {
			return fmt.Errorf("%s: program #%d's case file %s is not in the shard's corpus (%v)", c.Journal, c.Index, c.Name, err)
		}
	}
	return nil
}

// CopyCases copies the merged campaign's case files into corpus, each
// atomically (testcase.WriteFileAtomic): a file already there is kept, as a
// single machine keeps a case file its corpus already holds (saveCase).
func (m *Merged) CopyCases(corpus string) error {
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		return err
	}
	for _, c := range m.Cases {
		dst := filepath.Join(corpus, c.Name)
		if _, err := os.Stat(dst); err == nil {
			continue
		}
		data, err := os.ReadFile(c.Source)
		if err != nil {
			return fmt.Errorf("%s: program #%d's case file: %v", c.Journal, c.Index, err)
		}
		if err := testcase.WriteFileAtomic(dst, data); err != nil {
			return err
		}
	}
	return nil
}

// EncodeJournal is the journal of a finished campaign: header h (its
// Journal field set to JournalFormat), recs and one final progress line
// of elapsed time, marked finished unless interrupted.
func EncodeJournal(h Spec, recs []ProgramRecord, elapsed time.Duration, interrupted bool) ([]byte, error) {
	h.Journal = JournalFormat
	if h.Adapters == nil {
		h.Adapters = []string{}
	}
	var b bytes.Buffer
	lines := []any{h}
	for _, r := range recs {
		lines = append(lines, r)
	}
	lines = append(lines, JournalProgress{ElapsedMS: elapsed.Milliseconds(), Finished: !interrupted, Interrupted: interrupted})
	for _, l := range lines {
		data, err := json.Marshal(l)
		if err != nil {
			return nil, err
		}
		b.Write(append(data, '\n'))
	}
	return b.Bytes(), nil
}

// sameCampaign reports, naming b's file and the first option that
// differs, whether two shard journals describe different campaigns: every
// header field must agree apart from the shard and the outputs (where
// case files, the report and the JUnit XML went, and the baseline's path:
// its digest must agree).
func sameCampaign(a, b ShardJournal) error {
	fields := func(h Spec) map[string]json.RawMessage {
		h.Shard, h.Corpus, h.Report, h.JUnit, h.Baseline = "", "", "", "", ""
		h.Drivers = nil // shards may run on machines with other driver versions
		data, _ := json.Marshal(h)
		var m map[string]json.RawMessage
		_ = json.Unmarshal(data, &m)
		return m
	}
	fa, fb := fields(a.Header), fields(b.Header)
	keys := SortedKeys(fa)
	for _, k := range keys {
		if !bytes.Equal(fa[k], fb[k]) {
			return fmt.Errorf("%s: not a shard of the campaign of %s: its %s is %s, not %s", b.Path, a.Path, k, fb[k], fa[k])
		}
	}
	if a.Shards != b.Shards {
		return fmt.Errorf("%s: not a shard of the campaign of %s: it is shard %s of a campaign split in %d, not %d", b.Path, a.Path, b.Header.Shard, b.Shards, a.Shards)
	}
	return nil
}

// checkShardRecords checks that s holds exactly its shard's programs (see
// MergeJournals).
func checkShardRecords(s *ShardJournal, count int) error {
	want := s.Shard
	for k, r := range s.Records {
		if r.Index != want {
			switch {
			case r.Index%s.Shards != s.Shard:
				return fmt.Errorf("%s: record %d is program #%d, which is not shard %s's", s.Path, k+1, r.Index, s.Header.Shard)
			case r.Index < want:
				return fmt.Errorf("%s: program #%d is recorded twice", s.Path, r.Index)
			default:
				return fmt.Errorf("%s: program #%d is missing (the next record is #%d)", s.Path, want, r.Index)
			}
		}
		if count > 0 && r.Index >= count {
			return fmt.Errorf("%s: record %d is program #%d, beyond the campaign's count %d", s.Path, k+1, r.Index, count)
		}
		want += s.Shards
	}
	if count > 0 && want < count {
		n := (count - s.Shard + s.Shards - 1) / s.Shards
		return fmt.Errorf("%s: shard %s holds %d of its %d programs (#%d on are missing): the shard did not finish; continue it with gpudiff run --resume %s",
			s.Path, s.Header.Shard, len(s.Records), n, want, s.Path)
	}
	return nil
}

// shardCaseFile is where shard s saved the case file name: in its corpus,
// a relative corpus taken relative to the journal's directory when it is
// there, else as given (relative to the working directory).
func shardCaseFile(s *ShardJournal, name string) string {
	corpus := s.Header.Corpus
	if !filepath.IsAbs(corpus) {
		near := filepath.Join(filepath.Dir(s.Path), corpus, name)
		if _, err := os.Stat(near); err == nil {
			return near
		}
	}
	return filepath.Join(corpus, name)
}

// messageSig matches a compile error's message signature
// (messageSignature): no form ends in "/m" and 16 hex digits.
var messageSig = regexp.MustCompile(`^` + string(check.ClassCompileError) + `/.*/m[0-9a-f]{16}$`)

// isMessageSignature reports whether sig is a compile error's message
// signature, the failures finishProgram does not shrink once saved.
func isMessageSignature(sig string) bool { return messageSig.MatchString(sig) }

// ShardList names the merged journals in shard order (at most about 200
// bytes of them, then how many there are).
func (m *Merged) ShardList() string {
	s := ""
	for k, sh := range m.Shards {
		if k > 0 {
			s += ", "
		}
		s += sh.Path
	}
	if len(s) > 200 {
		s = fmt.Sprintf("%s … (%d journals)", s[:200], len(m.Shards))
	}
	return s
}

// WriteJournal writes the merged campaign's journal, with header h (the
// Header with the caller's outputs), to path atomically: its records in
// program order, as one machine would have journaled them.
func (m *Merged) WriteJournal(path string, h Spec) error {
	data, err := EncodeJournal(h, m.Records, m.Summary.Elapsed, m.Summary.Interrupted)
	if err != nil {
		return err
	}
	return testcase.WriteFileAtomic(path, data)
}
