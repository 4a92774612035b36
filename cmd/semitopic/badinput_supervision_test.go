package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// supervisionCorpus returns a JSON Lines corpus of n documents over
// three topics of six words; the first labeled of them carry their
// topic's label, the others none (labeled < 0: every document).
func supervisionCorpus(n, labeled int) string {
	words := map[string][]string{
		"finance": {"bank", "money", "loan", "credit", "interest", "market"},
		"sport":   {"game", "team", "player", "score", "match", "coach"},
		"food":    {"bread", "cheese", "apple", "dinner", "cook", "kitchen"},
	}
	names := []string{"finance", "sport", "food"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		name := names[i%3]
		var text []string
		for j := 0; j < 12; j++ {
			text = append(text, words[name][(i*7+j*5)%6])
		}
		text = append(text, words[names[(i+1)%3]][i%6])
		rec := map[string]any{"id": fmt.Sprintf("d%d", i), "text": strings.Join(text, " ")}
		if labeled < 0 || i < labeled {
			rec["labels"] = []string{name}
		}
		js, _ := json.Marshal(rec)
		b.Write(append(js, '\n'))
	}
	return b.String()
}

// runCLI runs the command line args in a test, failing it on an error.
func runCLI(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	root := newRoot(&out, &errb)
	root.SetArgs(args)
	if err := root.ExecuteContext(context.Background()); err != nil {
		t.Fatalf("semitopic %s: %v", strings.Join(args, " "), err)
	}
	return out.String()
}

// TestBadInputSupervision covers the anchors file's strengths, the
// numeric flags of fit given values that would silently mean the
// default, the automatic configuration with nothing to score, and empty
// topics (issue 24).
func TestBadInputSupervision(t *testing.T) {
	corpus := supervisionCorpus(60, 30)
	var cases []badCase
	// A strength that is not a number from 1e-6 to 1e6 names the file,
	// the line and the word, for every kind that takes seed words (NaN
	// was read as 1 by the NMF family; 1e300 named a pseudo-document's
	// row 200 of a 200-row corpus).
	for _, kind := range []string{"nmf", "ssnmf", "tsnmf", "lda", "corex"} {
		for _, v := range []string{"NaN", "1e300", "0", "-1", "Inf", "1e-300"} {
			cases = append(cases, badCase{
				name:  kind + " strength " + v,
				files: map[string]string{"c.jsonl": corpus, "a.txt": "# seeds\nfinance: money, bank:" + v + "\nsport: game\n"},
				args:  []string{"fit", "--kind", kind, "-k", "3", "--format", "jsonl", "$D/c.jsonl", "--anchors", "$D/a.txt", "--out", "$D/m.semitopic"},
				want:  []string{"$D/a.txt:2:", `seed word "bank"`, "strength", "from 1e-06 to 1e+06"},
				check: func(t *testing.T, dir, stdout, stderr string) {
					if strings.Contains(stdout+stderr, "row") {
						t.Errorf("the output names a row:\n%s%s", stdout, stderr)
					}
				},
			})
		}
	}
	// Explicit values that model.Options would read as "the default".
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--kind", "theme", "--subtopics", "0"}, "--subtopics 0: want a number ≥ 1"},
		{[]string{"--kind", "nmf", "-k", "0"}, "-k/--topics 0: want a number ≥ 1"},
		{[]string{"--kind", "tsnmf", "--topics", "0"}, "-k/--topics 0"},
		{[]string{"--kind", "corex", "-k", "3", "--restarts", "0"}, "--restarts 0: want a number ≥ 1"},
		{[]string{"--kind", "nmf", "-k", "3", "--max-iter", "0"}, "--max-iter 0: want a number ≥ 1"},
		{[]string{"--kind", "nmf", "-k", "3", "--tol", "0"}, "--tol 0: want a finite number > 0"},
		{[]string{"--kind", "ssnmf", "--lambda", "0"}, "--lambda 0: want a finite number > 0"},
		{[]string{"--kind", "corex", "-k", "3", "--beta", "0"}, "--beta 0: want a number from 1e-06 to 1e+06"},
		{[]string{"--kind", "nmf", "-k", "3", "--beta", "1e300"}, "--beta 1e+300: want a number from 1e-06 to 1e+06"},
		{[]string{"--kind", "theme", "--new-topics", "-1"}, "--new-topics -1: want a number ≥ 0"},
	} {
		args := append([]string{"fit"}, c.args...)
		args = append(args, "--format", "jsonl", "$D/c.jsonl", "--labels-from-corpus", "--out", "$D/m.semitopic")
		cases = append(cases, badCase{name: strings.Join(c.args, " "), files: map[string]string{"c.jsonl": corpus}, args: args,
			want: []string{c.want, "leave the flag out"}})
		if strings.Contains(c.args[len(c.args)-2], "new-topics") {
			cases[len(cases)-1].want = []string{c.want}
		}
	}
	// --new-topics 0 is none, as documented: accepted.
	cases = append(cases, badCase{name: "--new-topics 0", files: map[string]string{"c.jsonl": corpus}, ok: true,
		args: []string{"fit", "--kind", "theme", "--new-topics", "0", "--auto=false", "--max-iter", "5", "--format", "jsonl", "$D/c.jsonl", "--labels-from-corpus", "--out", "$D/m.semitopic"},
		want: []string{"theme model"}})
	// Every label once: nothing can be held out, and no accuracy is
	// printed for candidates never scored (it printed "0.0% ± 0.0" for
	// four kinds), in text or JSON.
	once := supervisionCorpus(30, 3)
	cases = append(cases, badCase{name: "auto, every label once", files: map[string]string{"c.jsonl": once}, ok: true,
		args: []string{"fit", "--kind", "auto", "--format", "jsonl", "$D/c.jsonl", "--labels-from-corpus", "--out", "$D/m.semitopic"},
		want: []string{"too few to hold any out", "nothing is scored", "not chosen by accuracy", "tsnmf model"},
		check: func(t *testing.T, dir, stdout, stderr string) {
			if strings.Contains(stdout, "±") || strings.Contains(stdout, "each kind's") {
				t.Errorf("an accuracy that was never measured is printed:\n%s", stdout)
			}
		}})
	cases = append(cases, badCase{name: "auto, every label once, JSON", files: map[string]string{"c.jsonl": once}, ok: true,
		args: []string{"fit", "--kind", "auto", "--json", "--format", "jsonl", "$D/c.jsonl", "--labels-from-corpus", "--out", "$D/m.semitopic"},
		want: []string{`"scored": false`, "nothing is scored"},
		check: func(t *testing.T, dir, stdout, stderr string) {
			if strings.Contains(stdout, `"accuracy"`) {
				t.Errorf("the JSON gives an accuracy that was never measured:\n%s", stdout)
			}
		}})
	// Empty topics (TS-NMF's free topics with every document labeled) are
	// counted once, not listed as topics, by fit and by topics.
	all := supervisionCorpus(24, -1)
	noEmptyListed := func(t *testing.T, dir, stdout, stderr string) {
		for _, line := range strings.Split(stdout, "\n") {
			if f := strings.Fields(line); len(f) > 0 && (f[0] == "topic-3" || f[0] == "topic-4") {
				t.Errorf("an empty topic is listed: %q", line)
			}
		}
	}
	cases = append(cases, badCase{name: "fit with empty topics", files: map[string]string{"c.jsonl": all}, ok: true,
		args:  []string{"fit", "--kind", "tsnmf", "-k", "5", "--auto=false", "--format", "jsonl", "$D/c.jsonl", "--labels-from-corpus", "--out", "$D/m.semitopic"},
		want:  []string{"5 topics (2 of them empty)", "2 empty topics, not listed", "every document is labeled, so they stay empty"},
		check: noEmptyListed})
	cases = append(cases, badCase{name: "topics with empty topics", files: map[string]string{"c.jsonl": all}, ok: true,
		setup: func(t *testing.T, dir string) {
			runCLI(t, "fit", "--kind", "tsnmf", "-k", "5", "--auto=false", "--format", "jsonl", dir+"/c.jsonl", "--labels-from-corpus", "--out", dir+"/m.semitopic")
		},
		args:  []string{"topics", "--model", "$D/m.semitopic"},
		want:  []string{"5 topics (2 of them empty)", "2 empty topics, not listed"},
		check: noEmptyListed})
	cases = append(cases, badCase{name: "topics --json marks empty topics", files: map[string]string{"c.jsonl": all}, ok: true,
		setup: func(t *testing.T, dir string) {
			runCLI(t, "fit", "--kind", "tsnmf", "-k", "5", "--auto=false", "--format", "jsonl", dir+"/c.jsonl", "--labels-from-corpus", "--out", dir+"/m.semitopic")
		},
		args: []string{"topics", "--json", "--model", "$D/m.semitopic"},
		check: func(t *testing.T, dir, stdout, stderr string) {
			if n := strings.Count(stdout, `"empty": true`); n != 2 {
				t.Errorf("%d topics marked empty in JSON, want 2:\n%s", n, stdout)
			}
		}})
	runBadCases(t, cases)
}
