package beam

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"fmt"

	"github.com/semitopic/semitopic/blocks"
)

// Test trainers, registered as every trainer shipped to Beam workers must be.
func init() {
	RegisterTrainer(&toyTrainer{})
	RegisterTrainer(&failTrainer{})
	RegisterTrainer(&cancelTrainer{})
}

// toyTrainer is a small iterative fit with the shape of the real ones: each
// document keeps K weights in the store, updated every pass from the
// topic-side K × V matrix H; the statistics are the K × V products of the
// weights and the counts, from which Reduce renormalises H. It runs a fixed
// number of passes. As the contract asks, a pass never overwrites what it
// reads: the weights alternate between two generations, toyState(pass).
type toyTrainer struct {
	K, V   int
	H      []float64
	Pass   int
	Passes int
}

func newToy(k, v, passes int) *toyTrainer {
	t := &toyTrainer{K: k, V: v, H: make([]float64, k*v), Passes: passes}
	for r := range k {
		for j := range v {
			t.H[r*v+j] = 1 + float64((r*5+j*3)%7)/7
		}
	}
	return t
}

// toyState names the generation of the weights that pass (from 0) reads;
// it writes toyState(pass+1).
func toyState(pass int) string { return fmt.Sprintf("w.%d", pass%2) }

func (t *toyTrainer) StatsLen() int {
	if t.Pass >= t.Passes {
		return 0
	}
	return t.K * t.V
}

func (t *toyTrainer) Map(ctx context.Context, i int, b *blocks.Block, st blocks.Store, acc []float64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	x := b.X
	w := make([]float64, x.Rows*t.K)
	if err := st.Load(toyState(t.Pass), i, w); blocks.IsNotExist(err) {
		for d := range x.Rows {
			for r := range t.K {
				w[d*t.K+r] = 1 + float64(((b.First+d)*7+r*3)%5)
			}
		}
	} else if err != nil {
		return err
	}
	for d := range x.Rows {
		wd := w[d*t.K : (d+1)*t.K]
		total := 0.0
		for r := range wd {
			score := 0.0
			for p := x.Indptr[d]; p < x.Indptr[d+1]; p++ {
				score += x.Data[p] * t.H[r*t.V+int(x.Indices[p])]
			}
			wd[r] = wd[r]*score + 1e-3
			total += wd[r]
		}
		for r := range wd {
			wd[r] /= total
			for p := x.Indptr[d]; p < x.Indptr[d+1]; p++ {
				acc[r*t.V+int(x.Indices[p])] += wd[r] * x.Data[p]
			}
		}
	}
	return st.Save(toyState(t.Pass+1), i, w)
}

func (t *toyTrainer) Reduce(_ context.Context, sum []float64) (bool, error) {
	if len(sum) != t.K*t.V {
		return false, fmt.Errorf("toy: %d statistics, want %d", len(sum), t.K*t.V)
	}
	for r := range t.K {
		row := t.H[r*t.V : (r+1)*t.V]
		total := 0.0
		for j := range row {
			row[j] = sum[r*t.V+j] + 0.01
			total += row[j]
		}
		for j := range row {
			row[j] /= total
		}
	}
	t.Pass++
	return t.Pass >= t.Passes, nil
}

// toyWire is what a toyTrainer's bytes hold (gob would call
// MarshalBinary again on the trainer itself).
type toyWire struct {
	K, V, Pass, Passes, FailBlock int
	H                             []float64
}

func (t *toyTrainer) wire() toyWire {
	return toyWire{K: t.K, V: t.V, Pass: t.Pass, Passes: t.Passes, H: t.H}
}

func (t *toyTrainer) set(w toyWire) {
	t.K, t.V, t.Pass, t.Passes, t.H = w.K, w.V, w.Pass, w.Passes, w.H
}

func encode(w toyWire) ([]byte, error) {
	var buf bytes.Buffer
	err := gob.NewEncoder(&buf).Encode(w)
	return buf.Bytes(), err
}

func decode(data []byte) (toyWire, error) {
	var w toyWire
	err := gob.NewDecoder(bytes.NewReader(data)).Decode(&w)
	return w, err
}

func (t *toyTrainer) MarshalBinary() ([]byte, error) { return encode(t.wire()) }

func (t *toyTrainer) UnmarshalBinary(data []byte) error {
	w, err := decode(data)
	t.set(w)
	return err
}

// failTrainer is a toyTrainer whose Map fails on one block.
type failTrainer struct {
	toyTrainer
	FailBlock int
}

func (t *failTrainer) Map(ctx context.Context, i int, b *blocks.Block, st blocks.Store, acc []float64) error {
	if i == t.FailBlock {
		return errors.New("toy: block refused")
	}
	return t.toyTrainer.Map(ctx, i, b, st, acc)
}

func (t *failTrainer) MarshalBinary() ([]byte, error) {
	w := t.wire()
	w.FailBlock = t.FailBlock
	return encode(w)
}

func (t *failTrainer) UnmarshalBinary(data []byte) error {
	w, err := decode(data)
	t.set(w)
	t.FailBlock = w.FailBlock
	return err
}

// cancelTrainer is a toyTrainer that cancels its context after its first
// pass (on the driver: workers only Map).
type cancelTrainer struct {
	toyTrainer
	cancel context.CancelFunc
}

func (t *cancelTrainer) Reduce(ctx context.Context, sum []float64) (bool, error) {
	t.cancel()
	return t.toyTrainer.Reduce(ctx, sum)
}
