package campaign

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// A journal is a campaign's durable log: a JSON-lines file whose first
// line is the campaign's Spec (its header) and every further line
// either one ProgramRecord, appended and fsynced as soon as the program is
// judged, or a progress line (JournalProgress) saying how much wall-clock
// time the campaign has spent. After a crash, `kill -9` or an interruption
// of the parent, `gpudiff run --resume LOG` reads it back, drops a torn
// last line, and checks only the programs the journal does not hold, so
// the finished journal holds exactly the records an uninterrupted run
// writes (records carry no timings for that reason).
//
// The header records every option that changes a record, so a resume
// needs no flag repeated. A Count campaign resumed checks the programs
// still missing; a Duration campaign resumed checks new programs for what
// is left of its budget: Duration minus the time its earlier runs spent
// (the last progress line; the time between that line and a crash is not
// counted, so a resumed duration campaign may run up to a second, or one
// program, longer in total than an uninterrupted one). Which programs a
// duration campaign reaches depends on time; the record of each program it
// checks does not.

// JournalFormat tags journal headers. Journals of the older format
// gpudiff-campaign/1 recorded too little to be resumed exactly and are
// refused.
const JournalFormat = "gpudiff-campaign/2"

// JournalDuration is a time.Duration written in Go's duration syntax
// ("1m30s") in journals.
type JournalDuration time.Duration

func (d JournalDuration) String() string { return time.Duration(d).String() }

// MarshalJSON writes d as a string such as "1m30s".
func (d JournalDuration) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads a string in time.ParseDuration's syntax.
func (d *JournalDuration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = JournalDuration(v)
	return nil
}

// JournalProgress is a progress line: the wall-clock time the campaign
// has spent so far, summed over every run of it (a resumed run adds its
// own to what the journal held). A line is written at most every
// ProgressEvery while records are appended, and once when a run ends:
// Finished when the campaign reached its Count or Duration, Interrupted
// when a signal stopped the run early.
type JournalProgress struct {
	ElapsedMS   int64 `json:"elapsed_ms"`
	Finished    bool  `json:"finished,omitempty"`
	Interrupted bool  `json:"interrupted,omitempty"`
}

// Elapsed is the spent time as a duration.
func (p JournalProgress) Elapsed() time.Duration {
	return time.Duration(p.ElapsedMS) * time.Millisecond
}

// ProgressEvery is the most often a journal writes a progress line while
// records are appended.
const ProgressEvery = time.Second

// Journal appends records and progress lines durably.
type Journal struct {
	f *os.File
	// spent is the time earlier runs of the campaign took; since is when
	// this run began (Begin), last when the last progress line was written.
	spent       time.Duration
	since, last time.Time
}

// CreateJournal starts a new journal at path (which must not exist) with
// its header; Journal and Tool are filled in by the caller's h as given,
// except Journal, which is always JournalFormat.
func CreateJournal(path string, h Spec) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	h.Journal = JournalFormat
	if h.Adapters == nil {
		h.Adapters = []string{}
	}
	j := &Journal{f: f}
	j.Begin()
	if err := j.append(h); err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// ReadJournal reads a journal without changing it: its header, its
// complete records in order, the last progress line (zero when there is
// none) and the length in bytes of its complete lines (a torn last line,
// from a crash mid-write, is left out). Errors name the file and line.
func ReadJournal(path string) (Spec, []ProgramRecord, JournalProgress, int64, error) {
	var h Spec
	var prog JournalProgress
	data, err := os.ReadFile(path)
	if err != nil {
		return h, nil, prog, 0, err
	}
	good := 0 // bytes of complete lines
	var recs []ProgramRecord
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	line := 0
	for sc.Scan() {
		b := sc.Bytes()
		end := good + len(b) + 1
		if end > len(data) { // last line without newline: torn
			break
		}
		line++
		if line == 1 {
			var probe struct {
				Journal string `json:"journal"`
			}
			if err := json.Unmarshal(b, &probe); err != nil || !strings.HasPrefix(probe.Journal, "gpudiff-campaign/") {
				return h, nil, prog, 0, fmt.Errorf("%s:1: not a gpudiff campaign journal", path)
			}
			if probe.Journal != JournalFormat {
				return h, nil, prog, 0, fmt.Errorf("%s:1: journal format %s is from an older gpudiff and does not record every option of its campaign; it cannot be resumed exactly (start the campaign again)", path, probe.Journal)
			}
			if err := json.Unmarshal(b, &h); err != nil {
				return h, nil, prog, 0, fmt.Errorf("%s:1: journal header: %v", path, err)
			}
		} else {
			var probe struct {
				ElapsedMS *int64 `json:"elapsed_ms"`
			}
			err := json.Unmarshal(b, &probe)
			if err == nil && probe.ElapsedMS != nil {
				err = json.Unmarshal(b, &prog)
			} else if err == nil {
				var r ProgramRecord
				if err = json.Unmarshal(b, &r); err == nil {
					recs = append(recs, r)
				}
			}
			if err != nil {
				if end == len(data) { // a garbled final line: torn write
					break
				}
				return h, nil, prog, 0, fmt.Errorf("%s:%d: %v", path, line, err)
			}
		}
		good = end
	}
	if line == 0 {
		return h, nil, prog, 0, fmt.Errorf("%s: empty journal (no header)", path)
	}
	return h, recs, prog, int64(good), nil
}

// OpenJournal reads an existing journal (ReadJournal), truncates a torn
// last line, and reopens it for appending. It returns the header, the
// complete records and the last progress line; the journal's Spent is
// that line's elapsed time.
func OpenJournal(path string) (*Journal, Spec, []ProgramRecord, JournalProgress, error) {
	h, recs, prog, good, err := ReadJournal(path)
	if err != nil {
		return nil, h, nil, prog, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0o644)
	if err != nil {
		return nil, h, nil, prog, err
	}
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, h, nil, prog, err
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, h, nil, prog, err
	}
	j := &Journal{f: f, spent: prog.Elapsed()}
	j.Begin()
	return j, h, recs, prog, nil
}

// Spent is the time earlier runs of the campaign spent (0 for a new
// journal).
func (j *Journal) Spent() time.Duration { return j.spent }

// Begin starts this run's clock: progress lines say Spent plus the time
// since Begin. CreateJournal and OpenJournal call it; call it again just
// before the campaign starts checking programs.
func (j *Journal) Begin() {
	j.since = time.Now()
	j.last = j.since
}

// Elapsed is the campaign's time so far: Spent plus this run's.
func (j *Journal) Elapsed() time.Duration { return j.spent + time.Since(j.since) }

// Append writes one record, and a progress line when ProgressEvery has
// passed since the last one, and fsyncs them.
func (j *Journal) Append(r ProgramRecord) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if now := time.Now(); now.Sub(j.last) >= ProgressEvery {
		j.last = now
		p, err := json.Marshal(JournalProgress{ElapsedMS: j.Elapsed().Milliseconds()})
		if err != nil {
			return err
		}
		b = append(append(b, p...), '\n')
	}
	return j.write(b)
}

// Finish writes the final progress line of this run: finished when the
// campaign reached its end, interrupted when a signal stopped it.
func (j *Journal) Finish(finished, interrupted bool) error {
	return j.append(JournalProgress{ElapsedMS: j.Elapsed().Milliseconds(), Finished: finished, Interrupted: interrupted})
}

func (j *Journal) append(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return j.write(append(b, '\n'))
}

func (j *Journal) write(b []byte) error {
	if _, err := j.f.Write(b); err != nil {
		return err
	}
	return j.f.Sync()
}

// Close closes the journal file.
func (j *Journal) Close() error { return j.f.Close() }
