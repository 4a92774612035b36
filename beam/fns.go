package beam

import (
	"context"
	"fmt"
	"os"
	"reflect"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/lda"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/shard"
)

// Registering the DoFns, the CombineFn, the emitter and the trainers in
// init is the Beam Go SDK's idiom: a worker finds them by name in the
// SDK's type registry (a global of the SDK's, the only one this package
// uses), and registration generates the calls that spare reflection at run
// time. The main module's trainers (NMF and TS-NMF, CorEx, LDA) are
// registered here; other trainers with RegisterTrainer.
func init() {
	RegisterTrainer(&nmf.Trainer{})
	RegisterTrainer(&corex.Trainer{})
	RegisterTrainer(&lda.Trainer{})
	register.DoFn3x1[context.Context, int, func([]float64), error](&mapFn{})
	register.Emitter1[[]float64]()
	register.Combiner1[[]float64](&sumFn{})
	register.DoFn1x1[[]float64, error](&saveFn{})
}

// mapFn runs one pass of a trainer on the blocks it is given, emitting
// each block's statistics. Its exported fields are what travels to the
// workers: strings only.
type mapFn struct {
	// Kind is the key of the trainer's type in Beam's type registry.
	Kind string
	// Trainer is the file holding the trainer's MarshalBinary bytes.
	Trainer string
	// Corpus is the sharded corpus folder.
	Corpus string
	// State is the shard.Store folder of the document-side state.
	State string

	tr  blocks.Trainer
	src blocks.Source
	st  blocks.Store
}

// Setup rebuilds the trainer and opens the corpus and the state store, once
// per instance of the DoFn on a worker.
func (f *mapFn) Setup() error {
	t, ok := runtime.LookupType(f.Kind)
	if !ok {
		return fmt.Errorf("beam: trainer type %s is not registered in the worker's binary (RegisterTrainer in an init function)", f.Kind)
	}
	tr, ok := reflect.New(t).Interface().(blocks.Trainer)
	if !ok {
		return fmt.Errorf("beam: *%s is not a blocks.Trainer", f.Kind)
	}
	data, err := os.ReadFile(f.Trainer)
	if err != nil {
		return fmt.Errorf("beam: reading the trainer: %w", err)
	}
	if err := tr.UnmarshalBinary(data); err != nil {
		return fmt.Errorf("beam: unmarshalling the trainer (%s): %w", f.Kind, err)
	}
	src, err := shard.OpenSource(f.Corpus)
	if err != nil {
		return fmt.Errorf("beam: %w", err)
	}
	st, err := shard.NewStore(f.State)
	if err != nil {
		return fmt.Errorf("beam: %w", err)
	}
	f.tr, f.src, f.st = tr, src, st
	return nil
}

// ProcessElement maps block i into a fresh statistics vector and emits it.
func (f *mapFn) ProcessElement(ctx context.Context, i int, emit func([]float64)) error {
	if i < 0 || i >= f.src.NumBlocks() {
		return fmt.Errorf("beam: no block %d in %s (it has %d)", i, f.Corpus, f.src.NumBlocks())
	}
	b, err := f.src.Read(i)
	if err != nil {
		return fmt.Errorf("beam: reading block %d: %w", i, err)
	}
	acc := make([]float64, f.tr.StatsLen())
	if err := f.tr.Map(ctx, i, b, f.st, acc); err != nil {
		return fmt.Errorf("beam: block %d: %w", i, err)
	}
	emit(acc)
	return nil
}

// sumFn sums vectors of one length element-wise. The accumulator starts
// nil and is a copy of the first vector added, so that the inputs are
// never written to.
type sumFn struct{}

// CreateAccumulator returns the empty sum, nil.
func (sumFn) CreateAccumulator() []float64 { return nil }

// AddInput adds x into the sum a.
func (sumFn) AddInput(a, x []float64) ([]float64, error) {
	return addInto(a, x)
}

// MergeAccumulators adds the sum b into the sum a.
func (sumFn) MergeAccumulators(a, b []float64) ([]float64, error) {
	return addInto(a, b)
}

// ExtractOutput returns the sum.
func (sumFn) ExtractOutput(a []float64) []float64 { return a }

// addInto returns a + x, in a's array unless a is nil.
func addInto(a, x []float64) ([]float64, error) {
	if a == nil {
		return append([]float64{}, x...), nil
	}
	if x == nil {
		return a, nil
	}
	if len(a) != len(x) {
		return nil, fmt.Errorf("beam: summing statistics of %d and %d values", len(a), len(x))
	}
	for j, v := range x {
		a[j] += v
	}
	return a, nil
}

// saveFn writes the summed statistics for the driver, as block 0 of
// sumName in a shard.Store in Dir.
type saveFn struct {
	// Dir is the pass's work folder.
	Dir string
}

// ProcessElement saves sum.
func (f *saveFn) ProcessElement(sum []float64) error {
	st, err := shard.NewStore(f.Dir)
	if err != nil {
		return fmt.Errorf("beam: %w", err)
	}
	if err := st.Save(sumName, 0, sum); err != nil {
		return fmt.Errorf("beam: saving the summed statistics: %w", err)
	}
	return nil
}
