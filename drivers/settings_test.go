package drivers

import (
	"testing"
	"time"
)

// TestSettingsValidate: each bad setting is refused naming its flag, in
// the order a command line's are checked; good ones resolve.
func TestSettingsValidate(t *testing.T) {
	ok := Settings{Corpora: []string{"x"}, Given: map[string]bool{}, Profile: "default", Invocations: 16, Mode: "raw", Stage: "compute", Timeout: time.Second, MaxInvocations: 64}
	for _, tc := range []struct {
		name string
		edit func(*Settings)
		want string
	}{
		{"mode", func(s *Settings) { s.Mode = "fast"; s.Corpora = nil }, "--mode: "},
		{"nothing", func(s *Settings) { s.Corpora = nil }, "nothing to run: give --corpus DIR and/or --generated N"},
		{"counts", func(s *Settings) { s.Invocations = 0; s.Stage = "x" }, "--generated and --size must be ≥ 0 and --invocations ≥ 1"},
		{"stage", func(s *Settings) { s.Stage = "vertex" }, "--stage: "},
		{"size", func(s *Settings) { s.Given = map[string]bool{"size": true} }, "--size must be at least 1, got 0"},
		{"size default", func(s *Settings) {}, ""},
		{"timeout", func(s *Settings) { s.Timeout = 0; s.Given = map[string]bool{"timeout": true} }, "--timeout must be a positive duration such as 30s or 5m, got 0s"},
		{"limit", func(s *Settings) { s.Invocations = 65; s.Profile = "nope" }, "--invocations 65 exceeds the limit of 64 (raise it with --max-invocations)"},
		{"profile", func(s *Settings) { s.Profile = "nope" }, "--profile: "},
		{"baseline", func(s *Settings) { s.Baseline = t.TempDir() + "/none" }, "--baseline: "},
	} {
		s := ok
		tc.edit(&s)
		r, err := s.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want == "" && (len(r.Stages) != 1 || r.Profile.Name != "default" || r.Known != nil):
			t.Errorf("%s: resolved %+v", tc.name, r)
		case tc.want != "" && (err == nil || len(err.Error()) < len(tc.want) || err.Error()[:len(tc.want)] != tc.want):
			t.Errorf("%s: error %v, want %q…", tc.name, err, tc.want)
		}
	}
}
