package model

import (
	"context"
	"crypto/sha256"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

func corpusMatrix(vocab []string, rows [][]float64) (*sparse.CSR, error) {
	return sparse.FromDense(mat.NewDense(len(rows), len(vocab), flatten(rows))), nil
}

func flatten(rows [][]float64) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

func sha256Sum(b []byte) []byte {
	s := sha256.Sum256(b)
	return s[:]
}

// mustTopics returns m's topics with n words, failing the test on an error.
func mustTopics(t testing.TB, m Model, n int) []Topic {
	t.Helper()
	ts, err := m.Topics(n)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// fitCorpus fits o on c vectorized with pipeline, through Fit.
func fitCorpus(ctx context.Context, c *corpus.Corpus, pipeline vectorize.Pipeline, o Options) (*Fitted, error) {
	return Fit(ctx, Text(c, &pipeline), o)
}
