package fuzz

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// A journal is a campaign's durable log: a JSON-lines file whose first
// line is the campaign header and every further line one ProgramRecord,
// each appended and fsynced as soon as the program is judged. After a
// crash or `kill -9` of the parent, `gpudiff run --resume LOG` reads it
// back, drops a torn last line, and checks only the programs the journal
// does not hold, so the finished journal holds exactly the records an
// uninterrupted run writes (records carry no timings for that reason).

// JournalHeader identifies a campaign: a resumed run must check the same
// programs the same way.
type JournalHeader struct {
	Journal     string   `json:"journal"` // "gpudiff-campaign/1"
	Seed        uint64   `json:"seed"`
	Count       int      `json:"count"`
	Size        int      `json:"size"`
	Profile     string   `json:"profile"`
	Shard       int      `json:"shard"`
	Shards      int      `json:"shards"`
	Mode        string   `json:"mode"`
	Invocations int      `json:"invocations"`
	SPIRV       bool     `json:"spirv"`
	Adapters    []string `json:"adapters"`
}

// JournalFormat tags journal headers.
const JournalFormat = "gpudiff-campaign/1"

// Journal appends records durably.
type Journal struct {
	f *os.File
}

// CreateJournal starts a new journal at path (which must not exist) with
// its header.
func CreateJournal(path string, h JournalHeader) (*Journal, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	h.Journal = JournalFormat
	j := &Journal{f: f}
	if err := j.append(h); err != nil {
		f.Close()
		return nil, err
	}
	return j, nil
}

// OpenJournal reads an existing journal, truncates a torn last line, and
// reopens it for appending. It returns the header and the complete
// records.
func OpenJournal(path string) (*Journal, JournalHeader, []ProgramRecord, error) {
	var h JournalHeader
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, h, nil, err
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
			if err := json.Unmarshal(b, &h); err != nil || h.Journal != JournalFormat {
				return nil, h, nil, fmt.Errorf("%s:1: not a gpudiff campaign journal", path)
			}
		} else {
			var r ProgramRecord
			if err := json.Unmarshal(b, &r); err != nil {
				if end == len(data) { // a garbled final line: torn write
					break
				}
				return nil, h, nil, fmt.Errorf("%s:%d: %v", path, line, err)
			}
			recs = append(recs, r)
		}
		good = end
	}
	if line == 0 {
		return nil, h, nil, fmt.Errorf("%s: empty journal (no header)", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0o644)
	if err != nil {
		return nil, h, nil, err
	}
	if err := f.Truncate(int64(good)); err != nil {
		f.Close()
		return nil, h, nil, err
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, h, nil, err
	}
	return &Journal{f: f}, h, recs, nil
}

// Append writes one record and fsyncs it.
func (j *Journal) Append(r ProgramRecord) error { return j.append(r) }

func (j *Journal) append(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return err
	}
	return j.f.Sync()
}

// Close closes the journal file.
func (j *Journal) Close() error { return j.f.Close() }
