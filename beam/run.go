package beam

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"

	beamsdk "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/dataflow"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/flink"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/spark"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/shard"
)

// Runner executes a pipeline: the Execute function of one of Beam's
// runners (prism.Execute, flink.Execute, spark.Execute,
// universal.Execute, dataflow.Execute). Its settings, such as --endpoint,
// --environment_type or a Dataflow project, are Beam's command-line flags.
type Runner = func(ctx context.Context, p *beamsdk.Pipeline) (beamsdk.PipelineResult, error)

// NamedRunner returns the runner called name: "prism" (or ""), "flink",
// "spark", "dataflow" or "universal" (any portable job server). Prism runs
// the pipeline in this process with loopback workers unless Beam's
// --endpoint flag names a Prism job server.
func NamedRunner(name string) (Runner, error) {
	switch name {
	case "", "prism":
		return prism.Execute, nil
	case "flink":
		return flink.Execute, nil
	case "spark":
		return spark.Execute, nil
	case "dataflow":
		return dataflow.Execute, nil
	case "universal":
		return universal.Execute, nil
	}
	return nil, fmt.Errorf("beam: unknown runner %q (prism, flink, spark, dataflow or universal)", name)
}

// sumName is the name under which the last step of a pass saves the summed
// statistics (as block 0 of a shard.Store in the pass's work folder).
const sumName = "sum"

// RegisterTrainer makes the type of tr known to Beam's type registry, so
// that a worker can rebuild a Trainer of that type from its MarshalBinary
// bytes. It must be called from an init function (as every Beam
// registration), before Beam's Init; tr is used only for its type, which
// must be a pointer to a named type. This package registers the trainers
// of the main module itself.
func RegisterTrainer(tr blocks.Trainer) {
	runtime.RegisterType(reflect.TypeOf(tr))
}

// Run fits tr on the sharded corpus in corpusDir (package shard), keeping
// the document-side state in a shard.Store in stateDir, with one Beam
// pipeline per pass executed by runner (nil: Prism). It does what
// blocks.Run does with that source and store, pass for pass: it stops when
// the trainer's StatsLen is 0 or its Reduce reports that the fit is
// finished, and it saves the trainer's state as the store's checkpoint
// after every pass, so that an interrupted fit resumes from its last
// completed pass (blocks.Resume on the store, then Run again). Only the
// order of the sums over blocks differs from blocks.Run.
//
// tr's type must be registered (RegisterTrainer), and the program must
// have called Beam's Init. The folders must be seen at the same path by
// every worker; Run works in a temporary subfolder of stateDir, removed
// when it returns. A cancellation is checked between passes and returned
// as ctx.Err(), the trainer as the last completed pass left it.
func Run(ctx context.Context, runner Runner, corpusDir, stateDir string, tr blocks.Trainer) error {
	if !beamsdk.Initialized() {
		return errors.New("beam: Beam is not initialized: the program must call flag.Parse and Beam's Init at the start of main")
	}
	if *jobopts.Async {
		return errors.New("beam: Beam's --async flag is set: Run needs each pass's result before it starts the next")
	}
	if runner == nil {
		runner = prism.Execute
	}
	kind, err := trainerKind(tr)
	if err != nil {
		return err
	}
	// Workers may start in another folder: give them absolute paths.
	if corpusDir, err = filepath.Abs(corpusDir); err != nil {
		return fmt.Errorf("beam: corpus folder: %w", err)
	}
	if stateDir, err = filepath.Abs(stateDir); err != nil {
		return fmt.Errorf("beam: state folder: %w", err)
	}
	src, err := shard.OpenSource(corpusDir)
	if err != nil {
		return fmt.Errorf("beam: %w", err)
	}
	st, err := shard.NewStore(stateDir)
	if err != nil {
		return fmt.Errorf("beam: %w", err)
	}
	work, err := os.MkdirTemp(stateDir, ".beam-")
	if err != nil {
		return fmt.Errorf("beam: work folder: %w", err)
	}
	defer os.RemoveAll(work)

	n := src.NumBlocks()
	var state []byte // tr's MarshalBinary at the start of the pass
	for pass := 1; ; pass++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		size := tr.StatsLen()
		if size == 0 {
			return nil
		}
		if state == nil {
			if state, err = tr.MarshalBinary(); err != nil {
				return fmt.Errorf("beam: marshalling the trainer: %w", err)
			}
		}
		sum := make([]float64, size)
		if n > 0 {
			dir := filepath.Join(work, fmt.Sprintf("pass-%05d", pass))
			err := runPass(ctx, runner, dir, mapFn{Kind: kind, Corpus: corpusDir, State: stateDir}, n, state, sum)
			if rmErr := os.RemoveAll(dir); err == nil && rmErr != nil {
				err = rmErr
			}
			if err != nil {
				if ctxErr := ctx.Err(); ctxErr != nil {
					return ctxErr
				}
				return fmt.Errorf("beam: pass %d: %w", pass, err)
			}
		}
		done, err := tr.Reduce(ctx, sum)
		if err != nil {
			return err
		}
		if state, err = tr.MarshalBinary(); err != nil {
			return fmt.Errorf("beam: marshalling the trainer: %w", err)
		}
		if err := st.SaveCheckpoint(state); err != nil {
			return fmt.Errorf("beam: %w", err)
		}
		if done {
			return nil
		}
	}
}

// runPass runs one pass of the trainer whose MarshalBinary is state over
// blocks 0..n-1, as a pipeline whose work files go in dir, and reads the
// summed statistics into sum.
func runPass(ctx context.Context, runner Runner, dir string, fn mapFn, n int, state []byte, sum []float64) error {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	fn.Trainer = filepath.Join(dir, "trainer.bin")
	if err := os.WriteFile(fn.Trainer, state, 0o644); err != nil {
		return err
	}

	p, s := beamsdk.NewPipelineWithRoot()
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	// Reshuffle spreads the blocks over the workers: a runner would
	// otherwise fuse the map with Create, which yields a single bundle.
	blocksCol := beamsdk.Reshuffle(s, beamsdk.CreateList(s, idx))
	parts := beamsdk.ParDo(s, &fn, blocksCol)
	total := beamsdk.Combine(s, &sumFn{}, parts)
	beamsdk.ParDo0(s, &saveFn{Dir: dir}, total)
	if _, err := runner(ctx, p); err != nil {
		return err
	}

	st, err := shard.NewStore(dir)
	if err != nil {
		return err
	}
	if err := st.Load(sumName, 0, sum); err != nil {
		if blocks.IsNotExist(err) {
			return fmt.Errorf("the pipeline finished without writing the summed statistics: %w", err)
		}
		return fmt.Errorf("reading the summed statistics: %w", err)
	}
	return nil
}

// trainerKind returns the key of tr's type in Beam's type registry, after
// checking that the type registered under it is tr's.
func trainerKind(tr blocks.Trainer) (string, error) {
	if tr == nil {
		return "", errors.New("beam: no trainer")
	}
	t := reflect.TypeOf(tr)
	if t.Kind() != reflect.Pointer {
		return "", fmt.Errorf("beam: trainer type %v is not a pointer", t)
	}
	key, ok := runtime.TypeKey(t.Elem())
	if !ok {
		return "", fmt.Errorf("beam: trainer type %v is not a named type", t)
	}
	if rt, ok := runtime.LookupType(key); !ok || rt != t.Elem() {
		return "", fmt.Errorf("beam: trainer type %v is not registered: call RegisterTrainer in an init function", t)
	}
	return key, nil
}
