package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// fit configures a label-supervised kind automatically and says how it
// compares with a linear SVM; --auto=false and explicit flags skip or fix
// the search.
func TestFitAuto(t *testing.T) {
	labeled, _ := writeDemoJSONL(t)
	dir := t.TempDir()
	m := filepath.Join(dir, "m.semitopic")
	out, _, err := run(t, "fit", "--kind", "tsnmf", "--format", "jsonl", labeled, "--labels-from-corpus", "--seed", "2", "--out", m)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"automatic configuration: 3-fold cross-validation", "linear SVM on the same labels", "kept tsnmf"} {
		if !strings.Contains(out, want) {
			t.Errorf("fit output lacks %q:\n%s", want, out)
		}
	}
	out, _, err = run(t, "fit", "--kind", "tsnmf", "--auto=false", "--format", "jsonl", labeled, "--labels-from-corpus", "--out", m)
	if err != nil || strings.Contains(out, "automatic configuration") {
		t.Errorf("--auto=false: %v\n%s", err, out)
	}
	js, _, err := run(t, "fit", "--kind", "ssnmf", "--readout", "topics", "--format", "jsonl", labeled, "--labels-from-corpus", "--json", "--out", m)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Info struct {
			Search struct {
				Candidates []struct {
					Options struct{ Readout string }
				}
			}
		}
	}
	if err := json.Unmarshal([]byte(js), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Info.Search.Candidates) == 0 {
		t.Fatal("no candidates in --json")
	}
	for _, c := range res.Info.Search.Candidates {
		if c.Options.Readout != "topics" {
			t.Errorf("--readout topics, candidate with readout %q", c.Options.Readout)
		}
	}
	out, _, err = run(t, "fit", "--kind", "auto", "--format", "jsonl", labeled, "--labels-from-corpus", "--out", m)
	if err != nil || !strings.Contains(out, "each kind's choice:") || strings.Count(out, "readout") < 5 {
		t.Errorf("--kind auto: %v\n%s", err, out)
	}
	if _, _, err := run(t, "fit", "--kind", "auto", "--format", "jsonl", labeled, "--out", m); err == nil {
		t.Error("--kind auto without labels: no error")
	}
	if _, _, err := run(t, "fit", "--kind", "tsnmf", "--readout", "magic", "--format", "jsonl", labeled, "--labels-from-corpus", "--out", m); err == nil {
		t.Error("--readout magic: no error")
	}
}
