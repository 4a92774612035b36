package labelefficiency

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/experiment/lab"
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
	env := &lab.Env{Data: data, Out: out, Quick: true, Command: "test", Log: &log}
	e := Experiment()
	if err := e.Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	report, err := os.ReadFile(filepath.Join(out, "label-efficiency-quick.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"linear SVM", "label spreading", "TS-NMF (auto)", "best kind (auto)", "The goals", "Why SSNMF", "*Label-anchored CorEx.*", leQuickNote} {
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
	if strings.Contains(string(report), "Incomplete") {
		t.Error("a complete report says it is incomplete")
	}
	// Redoing kinds recomputes them, the best kind and the measurements of
	// why in every stored run: deterministic, so the same results.
	log.Reset()
	redo := *env
	redo.Redo = []string{"ssnmf"}
	if err := e.Run(context.Background(), &redo); err != nil {
		t.Fatal(err)
	}
	raw3, _ := os.ReadFile(filepath.Join(out, "label-efficiency-quick.json"))
	var res3 leResults
	json.Unmarshal(raw3, &res3)
	if !strings.Contains(log.String(), "ssnmf redone") || len(res3.Why) != len(res.Why) {
		t.Errorf("the redo did not run (why: %d, was %d): %s", len(res3.Why), len(res.Why), log.String())
	}
	noTimes := func(rs []*leRun) []*leRun {
		for _, r := range rs {
			r.Seconds = 0
			for _, m := range r.Methods {
				m.Seconds = 0
			}
		}
		return rs
	}
	if !reflect.DeepEqual(noTimes(res.Runs), noTimes(res3.Runs)) {
		t.Error("redoing gave other results than the first run")
	}
	if res3.Redo != nil {
		t.Errorf("a finished redo is kept: %+v", res3.Redo)
	}
	// An interrupted redo resumes: the runs it redid are not redone.
	first := res3.Runs[0]
	res3.Redo = &leRedo{Kinds: []string{"ssnmf"}, Done: []string{leKey(first.Dataset, first.Fraction, first.Seed)}}
	b, _ := json.Marshal(res3)
	if err := os.WriteFile(filepath.Join(out, "label-efficiency-quick.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	log.Reset()
	if err := e.Run(context.Background(), &redo); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Count(log.String(), "ssnmf redone"), len(res3.Runs)-1; !strings.Contains(log.String(), "resuming the redo of ssnmf: 1 runs") || got != want {
		t.Errorf("the resumed redo redid %d runs, want %d: %s", got, want, log.String())
	}
	redo.Redo = []string{"lda"}
	if err := e.Run(context.Background(), &redo); err == nil || !strings.Contains(err.Error(), "not a kind") {
		t.Errorf("--redo lda: %v", err)
	}
	// Report only, in a folder without results: nothing runs and the
	// report names every missing run.
	empty := t.TempDir()
	ro := &lab.Env{Data: data, Out: empty, Quick: true, ReportOnly: true, Command: "test"}
	if err := e.Run(context.Background(), ro); err != nil {
		t.Fatal(err)
	}
	partial, err := os.ReadFile(filepath.Join(empty, "label-efficiency-quick.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(partial), "3 parts of the protocol missing (bbc 2% seed 0, bbc 20% seed 0, the why measurements on bbc)") {
		t.Errorf("the report-only report does not name its missing runs:\n%s", partial)
	}
	if _, err := os.Stat(filepath.Join(empty, "label-efficiency-quick.json")); err == nil {
		t.Error("report only wrote raw results")
	}
}

// The accuracy-estimate experiment in its quick mode: one run, its
// estimate and interval against the test accuracy, and the table.
func TestEstimateQuick(t *testing.T) {
	datadir.Require(t, "bbc/bbc-fulltext.tar.gz")
	data, err := datadir.Find()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	env := &lab.Env{Data: data, Out: out, Quick: true, Command: "test"}
	if err := EstimateExperiment().Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	var res esResults
	raw, err := os.ReadFile(filepath.Join(out, "accuracy-estimate-quick.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Runs) != 1 {
		t.Fatalf("%v: %d runs", err, len(res.Runs))
	}
	r := res.Runs[0]
	if !r.Scored || r.Est == nil || r.SVMEst == nil || !(r.Est.Low <= r.Est.Accuracy && r.Est.Accuracy <= r.Est.High) || r.Est.N < r.Labeled || !(r.Test > 0) {
		t.Errorf("run %+v, estimate %+v", r, r.Est)
	}
	report, err := os.ReadFile(filepath.Join(out, "accuracy-estimate-quick.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"interval covers the test accuracy", "All fits:", "Tibshirani"} {
		if !strings.Contains(string(report), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}
