package model

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/progress"
)

// TestInfoConvergence checks that every kind's fit records how it ended in
// Info, that the status is saved with the model and shown in its JSON,
// and that model files saved before fits reported it load as unknown.
func TestInfoConvergence(t *testing.T) {
	for _, c := range []struct {
		kind   string
		k      int
		labels bool
		want   progress.Status
	}{
		{KindNMF, 4, false, progress.IterationLimit},
		{KindTSNMF, 0, true, progress.IterationLimit},
		{KindSSNMF, 0, true, progress.IterationLimit},
		{KindTheme, 0, true, progress.IterationLimit},
		{KindCorEx, 4, false, progress.IterationLimit},
		{KindLDA, 4, false, progress.FixedIterations}, // no evaluations: no stopping rule
	} {
		f := fitDemo(t, Options{Kind: c.kind, K: c.k, Seed: 1, MaxIter: 1}, c.labels)
		if got := f.Info.Convergence; got.Status != c.want || got.MaxIter != 1 {
			t.Errorf("%s, max_iter 1: %+v, want %v", c.kind, got, c.want)
		}
		var buf bytes.Buffer
		if err := Save(&buf, f); err != nil {
			t.Fatal(err)
		}
		g, err := Load(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if g.Info.Convergence != f.Info.Convergence {
			t.Errorf("%s: %+v after save and load, was %+v", c.kind, g.Info.Convergence, f.Info.Convergence)
		}
		b, err := json.Marshal(f.Info)
		if err != nil {
			t.Fatal(err)
		}
		if want := `"convergence":{"status":"` + c.want.String() + `"`; !strings.Contains(string(b), want) {
			t.Errorf("%s: the info's JSON has no %s: %s", c.kind, want, b)
		}
	}
	f := fitDemo(t, Options{Kind: KindNMF, K: 4, Seed: 1, MaxIter: 2000, Tol: 1e-3}, false)
	if got := f.Info.Convergence; got.Status != progress.Converged || got.Value >= got.Tol || f.Info.Iterations >= 2000 {
		t.Errorf("nmf, tol 1e-3: %+v after %d iterations", got, f.Info.Iterations)
	}
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.semitopic"))
	if err != nil || len(files) == 0 {
		t.Fatalf("golden model files: %v", err)
	}
	// Info is read alike for every kind: one file tells.
	g, err := LoadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if s := g.Info.Convergence.String(); s != "unknown" {
		t.Errorf("%s, saved before fits reported their ending: %q", filepath.Base(files[0]), s)
	}
}

// TestAutoFitAtLimit checks that the automatic configuration counts the
// cross-validation fits that stopped at their limit, and says so.
func TestAutoFitAtLimit(t *testing.T) {
	f := fitDemo(t, Options{Kind: KindTSNMF, Seed: 3, Auto: true, MaxIter: 1}, true)
	s := f.Info.Search
	if s == nil || s.AtLimit != s.Fits-1 || s.AtLimit == 0 || f.Info.Convergence.Status != progress.IterationLimit {
		t.Fatalf("search %+v, final fit %+v", s, f.Info.Convergence)
	}
	note := false
	for _, n := range f.Info.Notes {
		note = note || strings.HasPrefix(n, fmt.Sprintf("%d of the %d cross-validation fits stopped at their iteration limit", s.AtLimit, s.Fits-1))
	}
	if !note {
		t.Errorf("no note of the fits at their limit: %q", f.Info.Notes)
	}
}
