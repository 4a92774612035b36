package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The cases of issue 25 on convergence: a fit stopped at its iteration
// limit says so on standard error, with what its stopping rule measured,
// in memory, out of core and with --json; a fit that converged or ran a
// fixed number of passes does not warn; topics shows how the fit ended,
// "unknown" for a model saved before fits reported it.
func TestBadInputConvergence(t *testing.T) {
	const limit = "warning: the fit stopped at its iteration limit (1) before converging (relative decrease of the objective "
	const advice = "; raise --max-iter or --tol\n"
	// warned checks that the warning is on standard error only.
	warned := func(t *testing.T, _, stdout, stderr string) {
		if !strings.Contains(stderr, limit) || !strings.Contains(stderr, advice) || strings.Contains(stdout, "warning:") {
			t.Errorf("the warning is not on standard error alone:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
		}
	}
	quiet := func(t *testing.T, _, stdout, stderr string) {
		if strings.Contains(stdout+stderr, "warning:") {
			t.Errorf("a warning without cause:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
		}
	}
	shards := func(t *testing.T, dir string) { shardsAt(t, filepath.Join(dir, "S"), 120) }
	demo := func(t *testing.T, dir string) {
		labeled, _ := writeDemoJSONL(t)
		b, err := os.ReadFile(labeled)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "demo.jsonl"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	golden, err := os.ReadFile(filepath.Join("..", "..", "model", "testdata", "golden", "v1-nmf.semitopic"))
	if err != nil {
		t.Fatal(err)
	}
	runBadCases(t, []badCase{
		{name: "fit stopped at its limit", files: tinyMTX,
			args: []string{"fit", "--kind", "nmf", "-k", "2", "--max-iter", "1", "--format", "mtx", "$D/X.mtx", "--out", "$D/m.semitopic"},
			ok:   true, want: []string{limit, "≥ tol 0.0001", advice, "saved $D/m.semitopic"}, check: warned},
		{name: "fit --json stopped at its limit", files: tinyMTX,
			args: []string{"fit", "--kind", "nmf", "-k", "2", "--max-iter", "1", "--format", "mtx", "$D/X.mtx", "--json", "--out", "$D/m.semitopic"},
			ok:   true, want: []string{limit},
			check: func(t *testing.T, dir, stdout, stderr string) {
				warned(t, dir, stdout, stderr)
				var res struct {
					Info struct {
						Convergence struct {
							Status  string
							MaxIter int `json:"max_iter"`
							Measure string
							Value   float64
							Tol     float64
						}
					}
				}
				if err := json.Unmarshal([]byte(stdout), &res); err != nil {
					t.Fatal(err)
				}
				c := res.Info.Convergence
				if c.Status != "iteration-limit" || c.MaxIter != 1 || c.Measure != "relative decrease of the objective" || c.Tol != 1e-4 || c.Value < c.Tol {
					t.Errorf("--json: %+v", c)
				}
			}},
		{name: "fit out of core stopped at its limit", setup: shards,
			args: []string{"fit", "--kind", "nmf", "-k", "3", "--max-iter", "1", "--format", "shards", "$D/S", "--out-of-core", "--out", "$D/m.semitopic"},
			ok:   true, want: []string{limit, advice, "fitted out of core"}, check: warned},
		{name: "corex stopped at its limit before its rule could measure", files: tinyMTX,
			args: []string{"fit", "--kind", "corex", "-k", "2", "--max-iter", "3", "--format", "mtx", "$D/X.mtx", "--out", "$D/m.semitopic"},
			ok:   true, want: []string{"warning: the fit stopped at its iteration limit (3) before converging" + advice}},
		{name: "a converged fit does not warn", files: tinyMTX,
			args: []string{"fit", "--kind", "nmf", "-k", "2", "--max-iter", "1000", "--tol", "0.01", "--format", "mtx", "$D/X.mtx", "--out", "$D/m.semitopic"},
			ok:   true, want: []string{"saved $D/m.semitopic"}, check: quiet},
		{name: "lda's fixed passes do not warn", setup: shards,
			args: []string{"fit", "--kind", "lda", "-k", "3", "--max-iter", "2", "--format", "shards", "$D/S", "--out-of-core", "--out", "$D/m.semitopic"},
			ok:   true, want: []string{"fitted out of core"}, check: quiet},
		{name: "the automatic configuration counts its fits at the limit", setup: demo,
			args: []string{"fit", "--kind", "tsnmf", "--max-iter", "1", "--format", "jsonl", "$D/demo.jsonl", "--labels-from-corpus", "--out", "$D/m.semitopic"},
			ok:   true, want: []string{"cross-validation fits stopped at their iteration limit before converging", limit}, check: warned},
		{name: "topics shows how the fit ended", files: tinyMTX,
			setup: func(t *testing.T, dir string) {
				mustRun(t, "fit", "--kind", "nmf", "-k", "2", "--max-iter", "1", "--format", "mtx", filepath.Join(dir, "X.mtx"), "--out", filepath.Join(dir, "m.semitopic"))
			},
			args: []string{"topics", "--model", "$D/m.semitopic"},
			ok:   true, want: []string{"convergence: stopped at its iteration limit (1) before converging (relative decrease of the objective"}},
		{name: "report shows how the fit ended", files: tinyMTX,
			setup: func(t *testing.T, dir string) {
				mustRun(t, "fit", "--kind", "nmf", "-k", "2", "--max-iter", "1", "--format", "mtx", filepath.Join(dir, "X.mtx"), "--out", filepath.Join(dir, "m.semitopic"))
			},
			args: []string{"report", "--model", "$D/m.semitopic", "--out", "$D/r.html"},
			ok:   true,
			check: func(t *testing.T, dir, _, _ string) {
				b, err := os.ReadFile(filepath.Join(dir, "r.html"))
				if err != nil || !strings.Contains(string(b), "stopped at its iteration limit (1) before converging") {
					t.Errorf("the report does not say how the fit ended (%v)", err)
				}
			}},
		{name: "topics of a model saved before fits reported their ending", files: map[string]string{"old.semitopic": string(golden)},
			args: []string{"topics", "--model", "$D/old.semitopic"},
			ok:   true, want: []string{"convergence: unknown\n"}},
	})
}
