package workbench

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/model"
)

func TestExports(t *testing.T) {
	c := demoCorpus(t, 160, false)
	s := open(t, Config{Corpus: c, K: 4, Source: []string{"--format", "jsonl", "/data/c.jsonl"}, Anchors: []model.Anchor{{Topic: "space", Words: []string{"rocket"}, Beta: []float64{2}}}})
	// Labels turn nmf into tsnmf, whose label topics the labels name.
	apply(t, s, Edit{Op: OpLabel, Docs: []string{"demo-001", "demo-009"}, Label: "space"})
	r := apply(t, s, Edit{Op: OpLabel, Docs: []string{"demo-002", "demo-010"}, Label: "cooking"})
	if r.Kind != model.KindTSNMF || topicOf(t, s, "cooking").Label != "cooking" {
		t.Fatalf("round after labels: %+v", r)
	}
	apply(t, s, Edit{Op: OpAddStopword, Word: "people"})
	export := func(what string) string {
		var b bytes.Buffer
		if err := s.Export(&b, what); err != nil {
			t.Fatalf("export %s: %v", what, err)
		}
		return b.String()
	}
	if got := export(ExportAnchors); got != "space: rocket:2\n" {
		t.Errorf("anchors %q", got)
	}
	if got := export(ExportLabels); got != "id,label\ndemo-001,space\ndemo-002,cooking\ndemo-009,space\ndemo-010,cooking\n" {
		t.Errorf("labels %q", got)
	}
	if got := export(ExportReport); !strings.Contains(got, "<html") || !strings.Contains(got, "cooking") || !strings.Contains(got, "round 4") {
		t.Errorf("report: %.300s", got)
	}
	m, err := model.Load(strings.NewReader(export(ExportModel)))
	if err != nil || m.Model.Kind() != model.KindTSNMF || m.Vectorizer == nil {
		t.Errorf("model: %v", err)
	}
	// The round started from the previous round's model (a warm start):
	// the export is the cold fit of its state, what fit makes of the
	// exported files, made once.
	r0 := s.current()
	if r0.cold || !r0.fitted.Info.Warm {
		t.Errorf("the refit after a stopword is a cold fit: %q", r0.fitted.Info.Notes)
	}
	cold, err := model.Load(strings.NewReader(export(ExportModel)))
	if err != nil {
		t.Fatal(err)
	}
	if r0.coldFitted == nil || r0.coldFitted == r0.fitted || cold.Info.Warm {
		t.Error("no cold fit made for a round that is not one")
	}
	want, err := fitCold(context.Background(), &fitSpec{d: r0.d, st: r0.state, seed: s.cfg.Seed, maxIter: s.cfg.MaxIter}, s.idOf, nil)
	if err != nil {
		t.Fatal(err)
	}
	ct, _ := cold.Model.Topics(20)
	wt, _ := want.Model.Topics(20)
	if !reflect.DeepEqual(ct, wt) {
		t.Error("the exported model differs from the cold fit of the state")
	}
	cmd := export(ExportCommand)
	for _, want := range []string{"semitopic fit --kind tsnmf -k 4 --seed 0 --max-iter 30 --format jsonl /data/c.jsonl --anchors ", "/rounds/000004/anchors.txt --labels-csv ",
		"/rounds/000004/labels.csv --drop-terms ", "/rounds/000004/stopwords.txt --auto=false --seed-rank 10 --out model.semitopic\n"} {
		if !strings.Contains(cmd, want) {
			t.Errorf("the command does not hold %q:\n%s", want, cmd)
		}
	}
	if err := s.Export(&bytes.Buffer{}, "pdf"); err == nil || !strings.Contains(err.Error(), `"pdf"`) || !strings.Contains(err.Error(), "command") {
		t.Errorf("unknown export: %v", err)
	}
	for _, what := range Exports() {
		if ExportName(what) == "" {
			t.Errorf("no file name for %s", what)
		}
	}
	if got := shellJoin([]string{"fit", "a b", "it's", "--x=1"}); got != `fit 'a b' 'it'\''s' --x=1` {
		t.Errorf("shellJoin: %s", got)
	}
}
