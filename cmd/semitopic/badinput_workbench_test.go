package main

import (
	"strings"
	"testing"
)

// TestBadInputWorkbenchFiles covers fit's files that a workbench exports
// (issue 26): --labels-csv, --drop-docs and --drop-terms, each error
// naming the file, the line and what is wrong.
func TestBadInputWorkbenchFiles(t *testing.T) {
	corpus := supervisionCorpus(30, 0)
	fit := func(extra ...string) []string {
		return append([]string{"fit", "--kind", "tsnmf", "--format", "jsonl", "$D/c.jsonl", "--max-iter", "5", "--out", "$D/m.semitopic"}, extra...)
	}
	nmf := func(extra ...string) []string {
		return append([]string{"fit", "--kind", "nmf", "-k", "3", "--format", "jsonl", "$D/c.jsonl", "--max-iter", "5", "--out", "$D/m.semitopic"}, extra...)
	}
	files := func(name, body string) map[string]string { return map[string]string{"c.jsonl": corpus, name: body} }
	runBadCases(t, []badCase{
		{name: "labels csv", files: files("l.csv", "id,label\nd0,finance\nd1,sport\nd2,food\nd3,finance\nd4,sport\nd5,food\n"),
			args: fit("--labels-csv", "$D/l.csv", "--auto=false"), ok: true, want: []string{"tsnmf model, 3 topics", "saved $D/m.semitopic"}},
		{name: "labels csv without header", files: files("l.csv", "d0,finance\nd1,sport\n"),
			args: fit("--labels-csv", "$D/l.csv", "--auto=false"), ok: true, want: []string{"tsnmf model, 2 topics"}},
		{name: "labels csv unknown document", files: files("l.csv", "id,label\nd0,finance\nd99,sport\n"),
			args: fit("--labels-csv", "$D/l.csv"), want: []string{"$D/l.csv:3:", `the ID "d99"`}},
		{name: "labels csv three fields", files: files("l.csv", "id,label\nd0,finance,extra\n"),
			args: fit("--labels-csv", "$D/l.csv"), want: []string{"$D/l.csv:2:", "3 fields", "id,label"}},
		{name: "labels csv empty label", files: files("l.csv", "d0,finance\nd1, \n"),
			args: fit("--labels-csv", "$D/l.csv"), want: []string{"$D/l.csv:2:", `"d1"`, "label field is empty"}},
		{name: "labels csv empty id", files: files("l.csv", "d0,finance\n,sport\n"),
			args: fit("--labels-csv", "$D/l.csv"), want: []string{"$D/l.csv:2:", "id field is empty"}},
		{name: "labels csv row twice", files: files("l.csv", "d0,finance\nd1,sport\nd0,finance\n"),
			args: fit("--labels-csv", "$D/l.csv"), want: []string{"$D/l.csv:3:", `"d0"`, "twice", "lines 1 and 3"}},
		{name: "labels csv bad quoting", files: files("l.csv", "d0,finance\nd1,\"sport\n"),
			args: fit("--labels-csv", "$D/l.csv"), want: []string{"$D/l.csv:2:"}},
		{name: "labels csv header only", files: files("l.csv", "id,label\n"),
			args: fit("--labels-csv", "$D/l.csv"), want: []string{"--labels-csv $D/l.csv", "no labels"}},
		{name: "labels csv missing", files: files("x", ""),
			args: fit("--labels-csv", "$D/none.csv"), want: []string{"$D/none.csv", "no such file"}},
		{name: "labels csv with labels from corpus", files: files("l.csv", "d0,finance\n"),
			args: fit("--labels-csv", "$D/l.csv", "--labels-from-corpus"), want: []string{"--labels-csv and --labels-from-corpus"}},
		{name: "labels csv out of core", files: files("l.csv", "d0,finance\n"),
			args: []string{"fit", "--kind", "tsnmf", "--format", "shards", "$D/s.shards", "--out-of-core", "--labels-csv", "$D/l.csv", "--out", "$D/m.semitopic"},
			want: []string{"--labels-csv applies to in-memory fits"}},
		{name: "labels csv is the output", files: files("l.semitopic", "d0,finance\n"),
			args: []string{"fit", "--kind", "tsnmf", "--format", "jsonl", "$D/c.jsonl", "--labels-csv", "$D/l.semitopic", "--out", "$D/l.semitopic"},
			want: []string{"--labels-csv"}},
		{name: "drop docs", files: files("drop.txt", "d0\nd1\n\nd2\n"),
			args: nmf("--drop-docs", "$D/drop.txt"), ok: true, want: []string{"fitted on 27 documents"}},
		{name: "drop docs unknown", files: files("drop.txt", "d0\nd42\n"),
			args: nmf("--drop-docs", "$D/drop.txt"), want: []string{"$D/drop.txt:2:", `the ID "d42"`}},
		{name: "drop docs twice", files: files("drop.txt", "d0\nd1\nd0\n"),
			args: nmf("--drop-docs", "$D/drop.txt"), want: []string{"$D/drop.txt:3:", `"d0" is given twice (lines 1 and 3)`}},
		{name: "drop docs all", files: map[string]string{"c.jsonl": supervisionCorpus(3, 0), "drop.txt": "d0\nd1\nd2\n"},
			args: nmf("--drop-docs", "$D/drop.txt"), want: []string{"$D/drop.txt", "every document"}},
		{name: "drop terms", files: files("terms.txt", "bank\nmoney\n"),
			args: nmf("--drop-terms", "$D/terms.txt", "--json"), ok: true, want: []string{`"loan"`},
			check: func(t *testing.T, dir, stdout, _ string) {
				for _, w := range []string{`"word": "bank"`, `"word": "money"`} {
					if strings.Contains(stdout, w) {
						t.Errorf("a dropped term is in the topics: %s", w)
					}
				}
			}},
		{name: "drop terms not in vocabulary", files: files("terms.txt", "bank\nbanks\n"),
			args: nmf("--drop-terms", "$D/terms.txt"), want: []string{"$D/terms.txt:2:", `"banks" is not a term of the vocabulary`}},
		{name: "drop terms with kind auto", files: files("terms.txt", "bank\n"),
			args: []string{"fit", "--kind", "auto", "--labels-from-corpus", "--format", "jsonl", "$D/c.jsonl", "--drop-terms", "$D/terms.txt", "--out", "$D/m.semitopic"},
			want: []string{"--drop-terms with --kind auto"}},
	})
}
