package model

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"

	"github.com/semitopic/semitopic/sparse"
)

// FuzzLoad feeds Load damaged model files. Load must return an error or a
// model that works, never panic. Each input is tried as it is (the
// checksum catches most damage) and with its checksum recomputed, so that
// damage inside the manifest and the matrices reaches the parsers.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.semitopic"))
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("semitopic-model v3\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		tryLoad(t, b)
		if len(b) > sha256.Size {
			body := bytes.Clone(b[:len(b)-sha256.Size])
			sum := sha256.Sum256(body)
			tryLoad(t, append(body, sum[:]...))
		}
	})
}

// tryLoad loads b and, when that succeeds, uses the model.
func tryLoad(t *testing.T, b []byte) {
	fitted, err := Load(bytes.NewReader(b))
	if err != nil {
		return
	}
	m := fitted.Model
	if len(fitted.Vocab) == 0 {
		return
	}
	m.Topics(3)
	x, err := sparse.NewCSR(1, len(fitted.Vocab), []int{0, 1}, []int32{0}, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	w, err := m.Transform(context.Background(), x)
	if err == nil {
		if r, c := w.Dims(); r != 1 || c != m.NumTopics() {
			t.Fatalf("Transform of one document gives %d×%d weights for %d topics", r, c, m.NumTopics())
		}
	}
	if p, ok := m.(Predictor); ok && len(p.Labels()) > 0 {
		p.Predict(context.Background(), x)
	}
	var buf bytes.Buffer
	Save(&buf, fitted)
}
