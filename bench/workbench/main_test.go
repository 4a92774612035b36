package main

import (
	"context"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/experiment/lab/labtest"
	"github.com/semitopic/semitopic/workbench"
)

// The quick protocol on the demo corpus runs every part over HTTP and
// writes a report with every section, a row per kind, every scripted
// edit timed, the exclusions' promise kept, the simulated person's
// rounds, its chart and its raw results; the last line gives each kind's
// median and 90th percentile.
func TestQuick(t *testing.T) {
	cfg := defaultConfig()
	cfg.quick, cfg.out, cfg.command, cfg.log = true, t.TempDir(), "go run ./bench/workbench -quick", nil
	cfg.applyQuick(nil)
	last, err := run(context.Background(), &cfg)
	if err != nil {
		t.Fatal(err)
	}
	kinds := strings.Join(defaultKinds, "|")
	one := `(` + kinds + `) median \d+\.\d s p90 \d+\.\d s`
	if !regexp.MustCompile(`^` + one + `(; ` + one + `){4}$`).MatchString(last) {
		t.Errorf("last line %q", last)
	}

	rep := labtest.ReadReport(t, cfg.out, reportName)
	if !strings.Contains(rep.Sections[0].Text, "**Quick run**") {
		t.Error("the quick report does not say it is one")
	}
	goals := rep.Section(t, "Goals of the issue").Table(t, 0, "goal", "target", "measured", "")
	if len(goals.Rows) < 2*len(defaultKinds)+3 {
		t.Errorf("%d goals: %q", len(goals.Rows), goals.Rows)
	}

	timing := rep.Section(t, "Time from an edit to new topics")
	tb := timing.Table(t, 0)
	if got := tb.Column(t, "kind"); !slices.Equal(got, defaultKinds) {
		t.Errorf("timing rows %q, want %q", got, defaultKinds)
	}
	for i, m := range tb.Column(t, "median, s") {
		if x := labtest.Number(m); !(x >= 0) {
			t.Errorf("%s: median %q", defaultKinds[i], m)
		}
	}
	// Every edit of the script timed for every kind: the labels only
	// for the kinds that learn from them.
	perEdit := timing.Table(t, 1)
	var ops []string
	for _, row := range perEdit.Rows {
		ops = append(ops, row[0])
		for j, cell := range row[1:] {
			kind := defaultKinds[j]
			want := kind != "nmf" || (row[0] != workbench.OpLabel && row[0] != workbench.OpUnlabel)
			if got := !strings.Contains(cell, "—"); got != want {
				t.Errorf("%s, %s: %q", kind, row[0], cell)
			}
		}
	}
	for _, op := range workbench.Ops() {
		if op != workbench.OpSetKind && !slices.Contains(ops, op) {
			t.Errorf("the script has no %s edit (%q)", op, ops)
		}
	}
	if !strings.Contains(timing.Text, "No edit was refused") {
		t.Errorf("edits refused or left out:\n%s", timing.Text)
	}

	page := rep.Section(t, "The page while a refit runs").Table(t, 0)
	if len(page.Rows) != 3 {
		t.Errorf("%d requests timed", len(page.Rows))
	}
	for _, n := range page.Column(t, "during the refit: requests") {
		if labtest.Number(n) < 1 {
			t.Errorf("requests during the refit: %q", n)
		}
	}

	eff := rep.Section(t, "Do edits take effect?").Table(t, 0)
	for i, n := range eff.Column(t, "edits checked") {
		if labtest.Number(n) != float64(cfg.edits) {
			t.Errorf("%s: %s edits checked, want %d", eff.Rows[i][0], n, cfg.edits)
		}
	}
	// The promise the workbench keeps without exception.
	for _, c := range eff.Column(t, "exclusion weighs 0 (engine)") {
		if c != "—" && labtest.Number(c) != 100 {
			t.Errorf("exclusions weighing zero: %q", c)
		}
	}

	person := rep.Section(t, "A simulated person")
	pt := person.Table(t, 0)
	if got := pt.Column(t, "labels"); !slices.Equal(got, []string{"5", "10", "15"}) {
		t.Errorf("labels per round %q", got)
	}
	for _, col := range pt.Header[1:] {
		for _, c := range pt.Column(t, col) {
			if x := labtest.Number(c); c != "—" && !(x >= 0 && x <= 100) {
				t.Errorf("%s: accuracy %q", col, c)
			}
		}
	}
	if !strings.Contains(person.Text, "(workbench-person.svg)") {
		t.Error("no chart of the simulated person")
	}
	rep.Section(t, "Cost of this run").Table(t, 0, "part", "wall, s", "CPU (user + system), s")
	if how := rep.Section(t, "How this was produced").Text; !strings.Contains(how, cfg.command) || !strings.Contains(how, "Wall time") {
		t.Errorf("closing section:\n%s", how)
	}
	var raw struct {
		Kinds []struct {
			Kind   string
			Script []struct{ Seconds float64 }
		}
		Person struct{ Arms []struct{ Points []any } }
	}
	labtest.ReadJSON(t, cfg.out, reportName+".json", &raw)
	if len(raw.Kinds) != len(defaultKinds) || len(raw.Person.Arms) != 2 || len(raw.Person.Arms[0].Points) != cfg.rounds {
		t.Errorf("raw results: %d kinds, person %+v", len(raw.Kinds), raw.Person)
	}
}

func TestPersonThresholds(t *testing.T) {
	nan := math.NaN()
	a := []activePoint{{Workbench: 12, SVM: nan}, {Workbench: 45, SVM: 41}}
	b := []activePoint{{Workbench: 25, SVM: 15}, {Workbench: 58, SVM: 50}}
	if got := personThresholds(a, b); !slices.Equal(got, []float64{20, 30, 40, 50}) {
		t.Errorf("20 Newsgroups-like curves: %v", got)
	}
	c := []activePoint{{Workbench: 74.8, SVM: 60}, {Workbench: 95.2, SVM: 93}}
	if got := personThresholds(c); !slices.Equal(got, []float64{70, 80, 90}) {
		t.Errorf("BBC-like curve: %v", got)
	}
	d := []activePoint{{Workbench: 81, SVM: 83}, {Workbench: 96, SVM: 95}}
	if got := personThresholds(d); !slices.Equal(got, []float64{85, 90, 95}) {
		t.Errorf("a narrow range: %v", got)
	}
}
