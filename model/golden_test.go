package model

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/text"
	"github.com/semitopic/semitopic/vectorize"
)

// goldenDir holds model files written by an older build (see its README).
const goldenDir = "testdata/golden"

// TestGoldenFiles loads every model file an older build wrote and checks
// that it describes the same pipeline and gives the same topic weights and
// labels as it did then.
func TestGoldenFiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.semitopic"))
	if err != nil || len(files) < 7 {
		t.Fatalf("golden model files: %v (%d found)", err, len(files))
	}
	c, err := corpus.JSONL{}.Read(context.Background(), filepath.Join(goldenDir, "tiny.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".semitopic")
		t.Run(name, func(t *testing.T) {
			f, err := LoadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.SplitN(name, "-", 3)[1]; f.Model.Kind() != want {
				t.Errorf("kind %s, want %s", f.Model.Kind(), want)
			}
			if f.Vectorizer == nil {
				t.Fatal("no text pipeline")
			}
			res, err := f.Vectorize(context.Background(), c.Docs)
			if err != nil {
				t.Fatal(err)
			}
			var labels [][]string
			w, err := f.Model.Transform(context.Background(), res.X)
			if err != nil {
				t.Fatal(err)
			}
			if p, ok := f.Model.(Predictor); ok && len(p.Labels()) > 0 {
				pred, err := p.Predict(context.Background(), res.X)
				if err != nil {
					t.Fatal(err)
				}
				labels = pred.Labels
			}
			want := readExpected(t, filepath.Join(goldenDir, name+".expected.jsonl"))
			if n, _ := w.Dims(); n != len(want) || n != len(c.Docs) {
				t.Fatalf("%d documents transformed, %d expected", n, len(want))
			}
			topics := mustTopics(t, f.Model, 1)
			for i, e := range want {
				if e.ID != c.Docs[i].ID {
					t.Fatalf("document %d is %s, expected %s", i, c.Docs[i].ID, e.ID)
				}
				for j, tp := range topics {
					got, exp := w.At(i, j), e.Topics[tp.Name]
					if math.Abs(got-exp) > 1e-9*math.Max(1, math.Abs(exp)) {
						t.Errorf("%s, topic %s: weight %.17g, was %.17g", e.ID, tp.Name, got, exp)
					}
				}
				if labels != nil && !slices.Equal(labels[i], e.Labels) {
					t.Errorf("%s: labels %v, were %v", e.ID, labels[i], e.Labels)
				}
			}
		})
	}
}

// TestGoldenPipeline checks that an old file's pipeline options, written
// when the file format stored enumerations as integers, read back as the
// same settings.
func TestGoldenPipeline(t *testing.T) {
	f, err := LoadFile(filepath.Join(goldenDir, "v1-nmf.semitopic"))
	if err != nil {
		t.Fatal(err)
	}
	to := f.Vectorizer.Analyzer().Options()
	if to.Case != text.Lower || to.Pattern != text.LettersDigits || to.Morph != text.Stem {
		t.Errorf("text options case %v, tokens %v, morph %v; want lower, alnum, stem", to.Case, to.Pattern, to.Morph)
	}
	if vo := f.Vectorizer.Options(); vo.Norm != vectorize.NormL1 || !vo.IDF {
		t.Errorf("vectorize options norm %v, idf %v; want l1, true", vo.Norm, vo.IDF)
	}
}

type expectedDoc struct {
	ID     string             `json:"id"`
	Topics map[string]float64 `json:"topics"`
	Labels []string           `json:"labels"`
}

func readExpected(t *testing.T, path string) []expectedDoc {
	t.Helper()
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []expectedDoc
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var d expectedDoc
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, d)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestResaveWritesNames saves old files again: the new file is the current
// version, names its enumerations, and gives the same topic weights.
func TestResaveWritesNames(t *testing.T) {
	for name, want := range map[string][]string{
		"v1-nmf":   {`"case":"lower"`, `"pattern":"alnum"`, `"morph":"stem"`, `"norm":"l1"`},
		"v1-theme": {`"case":"fold"`, `"pattern":"letters"`, `"morph":"lemma"`, `"norm":"l2"`, `"kind":"subtopic"`, `"kind":"background"`},
	} {
		f, err := LoadFile(filepath.Join(goldenDir, name+".semitopic"))
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := Save(&buf, f); err != nil {
			t.Fatal(err)
		}
		b := buf.Bytes()
		if header := fmt.Sprintf("semitopic-model v%d\n", FormatVersion); !bytes.HasPrefix(b, []byte(header)) {
			t.Errorf("%s saved again: header %q, want %q", name, b[:20], header)
		}
		for _, w := range want {
			if !bytes.Contains(b, []byte(w)) {
				t.Errorf("%s saved again: no %s in the manifest", name, w)
			}
		}
		for _, old := range []string{`"case":0`, `"case":1`, `"norm":1`, `"norm":2`, `"kind":0`, `"kind":2`} {
			if bytes.Contains(b, []byte(old)) {
				t.Errorf("%s saved again: the manifest still holds %s", name, old)
			}
		}
		g, err := Load(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		c, err := corpus.JSONL{}.Read(context.Background(), filepath.Join(goldenDir, "tiny.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		res, err := g.Vectorize(context.Background(), c.Docs)
		if err != nil {
			t.Fatal(err)
		}
		w1, err1 := f.Model.Transform(context.Background(), res.X)
		w2, err2 := g.Model.Transform(context.Background(), res.X)
		if err1 != nil || err2 != nil || !mat.Equal(w1, w2) {
			t.Errorf("%s: weights differ after saving again (%v, %v)", name, err1, err2)
		}
	}
}
