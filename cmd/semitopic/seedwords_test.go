package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every kind that takes seed words is steered by an anchors file alone —
// typed as a person types, capitals and plurals — and predicts the seed
// topics' names: on the demo corpus, the planted themes.
func TestFitSeedWords(t *testing.T) {
	labeled, truth := writeDemoJSONL(t)
	dir := t.TempDir()
	anchors := filepath.Join(dir, "anchors.txt")
	seeds := `# two seed words per planted theme
computing: Software, Servers
cooking: Recipes, Oven
finance: Banks, Investors
football: Goals, Striker
gardening: Soil, Compost
medicine: Patients, Doctor
music: Guitars, Melody
space: Rockets, Orbit, -people
`
	if err := os.WriteFile(anchors, []byte(seeds), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"--kind", "nmf", "-k", "8"},
		{"--kind", "tsnmf"},
		{"--kind", "ssnmf"},
		{"--kind", "corex", "-k", "8"},
		{"--kind", "lda", "--seed-mode", "zlabels"},
		{"--kind", "lda"},
	} {
		m := filepath.Join(dir, args[1]+".semitopic")
		fit := append([]string{"fit", "--format", "jsonl", labeled, "--anchors", anchors, "--seed", "1", "--json", "--top", "20", "--out", m}, args...)
		out, _, err := run(t, fit...)
		if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		var res struct {
			Topics []struct {
				Name  string
				Words []struct{ Word string }
			}
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		for _, tp := range res.Topics {
			if tp.Name != "space" {
				continue
			}
			for _, w := range tp.Words {
				if w.Word == "people" {
					t.Errorf("%v: the excluded word people is among space's words", args)
				}
			}
		}
		_, errOut, err := run(t, "predict", "--model", m, "--format", "jsonl", truth, "--subset", "test", "--out", filepath.Join(dir, "p.csv"))
		if err != nil {
			t.Fatalf("%v: predict: %v", args, err)
		}
		var acc float64
		for _, f := range strings.Fields(errOut) {
			if strings.HasSuffix(f, "%") {
				json.Unmarshal([]byte(strings.TrimSuffix(f, "%")), &acc)
				break
			}
		}
		t.Logf("%v: accuracy %.1f%%", args, acc)
		if acc < 80 {
			t.Errorf("%v: accuracy %.1f%% on the demo test split with seed words alone, want ≥ 80%%\n%s", args, acc, errOut)
		}
	}
}
