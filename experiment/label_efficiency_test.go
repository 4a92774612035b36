package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/internal/datadir"
)

// The label-efficiency experiment in its quick mode, end to end: every
// method runs, the report and its raw results are written, and a rerun
// resumes from them instead of fitting again.
func TestLabelEfficiencyQuick(t *testing.T) {
	datadir.Require(t, "bbc/bbc-fulltext.tar.gz")
	data, err := datadir.Find()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var log bytes.Buffer
	env := &Env{Data: data, Out: out, Quick: true, Command: "test", Log: &log}
	e, err := Find("label-efficiency")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join(out, "label-efficiency-quick.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"linear SVM", "label spreading", "TS-NMF (auto)", "best kind (auto)", "The goals", "Why SSNMF", "*Label-anchored CorEx.*"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	raw, err := os.ReadFile(filepath.Join(out, "label-efficiency-quick.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res leResults
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Runs) != 2 {
		t.Fatalf("%d runs, want 2", len(res.Runs))
	}
	for _, r := range res.Runs {
		for _, m := range []string{leNB, leSVM, leLR, leSpread, leNMF, leLDA, leBest, leAutoName("tsnmf"), leDefaultName("ssnmf")} {
			x := r.Methods[m]
			if x == nil || !(x.Accuracy > 0) {
				t.Errorf("%s %g: %s missing or zero", r.Dataset, r.Fraction, m)
			}
		}
		if a := r.Methods[leAutoName("tsnmf")]; a == nil || a.CV == nil || a.Chosen == "" {
			t.Errorf("%g: the automatic configuration's estimate is missing", r.Fraction)
		}
	}
	// A rerun resumes: the same results, no new fits.
	log.Reset()
	if err := e.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	raw2, _ := os.ReadFile(filepath.Join(out, "label-efficiency-quick.json"))
	var res2 leResults
	json.Unmarshal(raw2, &res2)
	if !reflect.DeepEqual(res.Runs, res2.Runs) || !strings.Contains(log.String(), "resuming") {
		t.Error("the rerun did not resume from the saved results")
	}
}
