package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/vectorize"
	"github.com/semitopic/semitopic/workbench"
)

// TestWorkbenchExportReproduces fits a workbench state through the
// command a workbench exports, as a person would run it, and checks that
// the model is the workbench's bit for bit: the same vocabulary, topic
// names and every word weight of every topic (issue 26).
func TestWorkbenchExportReproduces(t *testing.T) {
	d, err := demo.Generate(demo.Options{Docs: 160})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "c.jsonl")
	var b bytes.Buffer
	for _, doc := range d.Corpus.Docs {
		js, _ := json.Marshal(map[string]any{"id": doc.ID, "text": doc.Text, "labels": doc.Labels})
		b.Write(append(js, '\n'))
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	source := []string{"--format", "jsonl", path}
	explicit, err := vectorize.PipelinePreset("default")
	if err != nil {
		t.Fatal(err)
	}
	explicit.Vectorize.MinDF = vectorize.Count(2)
	for _, tc := range []struct {
		name     string
		pipeline *vectorize.Pipeline
		args     []string
		edits    []workbench.Edit
	}{
		{name: "nmf with seeds, exclusions, stopwords and removed documents", edits: []workbench.Edit{
			{Op: workbench.OpAddSeed, Topic: "topic-1", Word: "Rockets"},
			{Op: workbench.OpAddSeed, Topic: "topic-1", Word: "orbit", Strength: 2.5},
			{Op: workbench.OpAddExclude, Topic: "topic-1", Word: "people"},
			{Op: workbench.OpCreateTopic, Name: "cooking", Words: []string{"recipe", "oven"}},
			{Op: workbench.OpAddStopword, Word: "year"},
			{Op: workbench.OpRemoveDoc, Docs: []string{"demo-003", "demo-010"}},
		}},
		{name: "tsnmf with labels and an explicit pipeline", pipeline: &explicit, args: []string{"--preset", "default", "--min-df", "2"}, edits: []workbench.Edit{
			{Op: workbench.OpLabel, Docs: []string{"demo-001", "demo-002", "demo-005"}, Label: "space"},
			{Op: workbench.OpLabel, Docs: []string{"demo-004", "demo-006"}, Label: "cooking"},
			{Op: workbench.OpAddSeed, Topic: "space", Word: "telescope"},
			{Op: workbench.OpAddStopword, Word: "people"},
			{Op: workbench.OpRemoveDoc, Docs: []string{"demo-002"}},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := (corpus.JSONL{}).Read(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := workbench.Open(context.Background(), workbench.Config{Corpus: c, Source: source, Pipeline: tc.pipeline, PipelineArgs: tc.args,
				K: 5, Seed: 3, MaxIter: 25, Project: filepath.Join(t.TempDir(), "p"), Debounce: -1})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			for _, e := range tc.edits {
				v, err := s.Apply(s.Status().Version, e)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := s.Refit(v); err != nil {
					t.Fatal(err)
				}
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				_, err = s.Wait(ctx, v)
				cancel()
				if err != nil {
					t.Fatal(err)
				}
			}
			args, err := s.Command()
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "m.semitopic")
			i := slices.Index(args, "--out")
			if args[0] != "semitopic" || i < 0 {
				t.Fatalf("command %q: want semitopic fit ... --out FILE", args)
			}
			args[i+1] = out
			runCLI(t, args[1:]...)
			var wb bytes.Buffer
			if err := s.Export(&wb, workbench.ExportModel); err != nil {
				t.Fatal(err)
			}
			want, err := model.Load(&wb)
			if err != nil {
				t.Fatal(err)
			}
			got, err := model.LoadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got.Vocab, want.Vocab) {
				t.Fatalf("the command's vocabulary has %d terms, the workbench's %d", len(got.Vocab), len(want.Vocab))
			}
			if got.Model.Kind() != want.Model.Kind() || got.Model.NumTopics() != want.Model.NumTopics() {
				t.Fatalf("the command fitted %s with %d topics, the workbench %s with %d", got.Model.Kind(), got.Model.NumTopics(), want.Model.Kind(), want.Model.NumTopics())
			}
			gt, err := got.Model.Topics(0)
			if err != nil {
				t.Fatal(err)
			}
			wt, err := want.Model.Topics(0)
			if err != nil {
				t.Fatal(err)
			}
			for k := range wt {
				if gt[k].Name != wt[k].Name || len(gt[k].Words) != len(wt[k].Words) {
					t.Fatalf("topic %d: the command's %q has %d words, the workbench's %q %d", k, gt[k].Name, len(gt[k].Words), wt[k].Name, len(wt[k].Words))
				}
				for j, w := range wt[k].Words {
					if gt[k].Words[j] != w {
						t.Fatalf("topic %q, word %d: the command's %v, the workbench's %v", wt[k].Name, j, gt[k].Words[j], w)
					}
				}
			}
			for _, w := range []string{"year", "people"} {
				if slices.Contains(got.Vocab, w) && slices.Contains(s.State().Stopwords, w) {
					t.Errorf("the stopword %q is in the command's vocabulary", w)
				}
			}
			if got.Info.Documents != want.Info.Documents {
				t.Errorf("the command fitted %d documents, the workbench %d", got.Info.Documents, want.Info.Documents)
			}
		})
	}
}
