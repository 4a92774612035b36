package workbench

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

func TestLabelsFile(t *testing.T) {
	labels := map[string][]string{"b": {"y", "x"}, "a, c": {"z"}, `q"d`: {"x"}}
	var b bytes.Buffer
	if err := WriteLabels(&b, labels); err != nil {
		t.Fatal(err)
	}
	if want := "id,label\n\"a, c\",z\nb,x\nb,y\n\"q\"\"d\",x\n"; b.String() != want {
		t.Errorf("labels CSV:\n%s\nwant:\n%s", b.String(), want)
	}
	rows, err := ReadLabels("l.csv", &b)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, r := range rows {
		got[r.ID] = append(got[r.ID], r.Label)
	}
	if !reflect.DeepEqual(got, map[string][]string{"b": {"x", "y"}, "a, c": {"z"}, `q"d`: {"x"}}) || rows[0].Line != 2 {
		t.Errorf("read back: %v (first row on line %d)", got, rows[0].Line)
	}
	for _, tc := range []struct{ in, want string }{
		{"a,x\nb\n", "l.csv:2: 1 fields"},
		{"a,x\n,y\n", "l.csv:2: the id field is empty"},
		{"a,x\nb,\n", `l.csv:2: document "b": the label field is empty`},
		{"a,x\nb,y\na,x\n", `l.csv:3: document "a" has the label "x" twice (lines 1 and 3)`},
		{"a,\"x\n", "l.csv:1:"},
	} {
		if _, err := ReadLabels("l.csv", strings.NewReader(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.in, err, tc.want)
		}
	}
}

func TestListFile(t *testing.T) {
	var b bytes.Buffer
	if err := WriteList(&b, []string{"new york", "b"}); err != nil {
		t.Fatal(err)
	}
	ls, err := ReadList("x.txt", strings.NewReader(b.String()+"\n  \nc\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []Line{{"new york", 1}, {"b", 2}, {"c", 5}}; !reflect.DeepEqual(ls, want) {
		t.Errorf("list %v, want %v", ls, want)
	}
	if _, err := ReadList("x.txt", strings.NewReader("a\nb\na\n")); err == nil || !strings.Contains(err.Error(), `x.txt:3: "a" is given twice (lines 1 and 3)`) {
		t.Errorf("a value twice: %v", err)
	}
	if err := WriteList(&b, []string{"a\nb"}); err == nil {
		t.Error("a value with a line break written")
	}
}

func TestDropFromCorpus(t *testing.T) {
	x, err := sparse.FromTriplets(3, 3, []sparse.Triplet{{Row: 0, Col: 0, Val: 1}, {Row: 0, Col: 2, Val: 2}, {Row: 1, Col: 1, Val: 3}, {Row: 2, Col: 2, Val: 4}})
	if err != nil {
		t.Fatal(err)
	}
	c := &corpus.Corpus{Name: "m", Docs: []corpus.Document{{ID: "a"}, {ID: "b"}, {ID: "c"}}, Matrix: &corpus.Matrix{X: x, Vocab: []string{"p", "q", "r"}}}
	d, err := DropDocs(c, "drop.txt", []Line{{"b", 1}})
	if err != nil {
		t.Fatal(err)
	}
	d, _, err = DropTerms(context.Background(), d, vectorize.Pipeline{}, "terms.txt", []Line{{"q", 1}, {"p", 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Docs) != 2 || d.Docs[1].ID != "c" || !reflect.DeepEqual(d.Matrix.Vocab, []string{"r"}) || d.Matrix.X.At(0, 0) != 2 || d.Matrix.X.At(1, 0) != 4 || d.Matrix.X.Cols != 1 {
		t.Errorf("dropped: %+v %+v", d.Docs, d.Matrix)
	}
	if len(c.Docs) != 3 || c.Matrix.X.Cols != 3 {
		t.Error("the input corpus changed")
	}
	if _, err := DropDocs(c, "drop.txt", []Line{{"a", 1}, {"zz", 2}}); err == nil || !strings.Contains(err.Error(), `drop.txt:2: no document of m has the ID "zz"`) {
		t.Errorf("unknown document: %v", err)
	}
	if _, _, err := DropTerms(context.Background(), c, vectorize.Pipeline{}, "terms.txt", []Line{{"s", 3}}); err == nil || !strings.Contains(err.Error(), `terms.txt:3: "s" is not a term`) {
		t.Errorf("unknown term: %v", err)
	}
	l, err := SetLabels(c, "l.csv", []LabelRow{{"c", "x", 2}, {"c", "y", 3}})
	if err != nil {
		t.Fatal(err)
	}
	if l.Docs[0].Labels != nil || !reflect.DeepEqual(l.Docs[2].Labels, []string{"x", "y"}) {
		t.Errorf("labels %+v", l.Docs)
	}
	dup := &corpus.Corpus{Name: "d", Docs: []corpus.Document{{ID: "a"}, {ID: "a"}}}
	if _, err := SetLabels(dup, "l.csv", nil); err == nil || !strings.Contains(err.Error(), `documents 1 and 2 have the same ID "a"`) {
		t.Errorf("duplicate IDs: %v", err)
	}
	if _, err := Open(context.Background(), Config{Corpus: dup, Project: t.TempDir()}); err == nil || !strings.Contains(err.Error(), `same ID "a"`) {
		t.Errorf("a session on duplicate IDs: %v", err)
	}
}
