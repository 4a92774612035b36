package model

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/vectorize"
)

// outOfCore is a kind that trains out of core, on a sharded corpus.
type outOfCore interface {
	Kind
	// fitShards fits a model of the kind on d with the settings of o
	// (validated, without supervision or progress callback).
	fitShards(ctx context.Context, d *shardData, o Options) (*Fitted, error)
	// newLimitsOnResume reports whether the kind's trainer takes new
	// MaxIter and Tol when it resumes from a checkpoint, which then
	// leaves them out of its settings.
	newLimitsOnResume() bool
}

// shardData is what an out-of-core fit takes besides its options: the
// sharded corpus, the store of its documents' state, its vocabulary, the
// anchors (analyzed as the corpus was) and where to report progress
// (never nil). Labels come from the corpus (Options.LabelsFromCorpus).
type shardData struct {
	src     *shard.Source
	store   blocks.Store
	vocab   []string
	anchors []Anchor
	report  progress.Func
}

// OutOfCoreKinds lists the kinds Fit trains out of core (Shards): nmf
// and tsnmf with exclusion words (tsnmf with the corpus's labels), corex
// and batch lda with seed and exclusion words.
func OutOfCoreKinds() []string {
	var out []string
	for _, k := range kinds() {
		if _, ok := k.(outOfCore); ok {
			out = append(out, k.Name())
		}
	}
	return out
}

// outOfCoreKind returns the kind named name if it trains out of core.
func outOfCoreKind(name string) (outOfCore, error) {
	k, err := KindOf(name)
	if err != nil {
		return nil, err
	}
	ok, is := k.(outOfCore)
	if !is {
		return nil, fmt.Errorf("model: %s models are not trained out of core (out of core: %s)", name, strings.Join(OutOfCoreKinds(), ", "))
	}
	return ok, nil
}

// fitOutOfCore fits o out of core on the sharded corpus src with its
// state in stateDir (see Shards), removing a state folder it created
// when the fit fails before saving a checkpoint.
func fitOutOfCore(ctx context.Context, src *shard.Source, stateDir string, o Options) (*Fitted, error) {
	_, statErr := os.Lstat(stateDir)
	created := errors.Is(statErr, fs.ErrNotExist)
	f, err := fitShards(ctx, src, stateDir, o)
	if err != nil && created {
		if _, cerr := os.Stat(filepath.Join(stateDir, shard.CheckpointFile)); errors.Is(cerr, fs.ErrNotExist) {
			os.RemoveAll(stateDir)
		}
	}
	return f, err
}

func fitShards(ctx context.Context, src *shard.Source, stateDir string, o Options) (*Fitted, error) {
	if o.Labels != nil {
		return nil, fmt.Errorf("model: out of core, labels come from the corpus's labels file (LabelsFromCorpus)")
	}
	k, err := outOfCoreKind(o.Kind)
	if err != nil {
		return nil, err
	}
	if o.Readout != "" && o.Readout != ReadoutNative {
		return nil, fmt.Errorf("model: the %s readout is trained in memory; out of core the model predicts with its own rule", o.Readout)
	}
	if o.HoldLabels {
		return nil, fmt.Errorf("model: --hold-labels holds the labeled documents of a fit in memory; out of core no document stays in memory")
	}
	n, m := src.Dims()
	vocab, err := src.Vocab()
	if err != nil {
		return nil, err
	}
	if vocab == nil {
		return nil, fmt.Errorf("model: %s has no vocabulary file", src.Dir())
	}
	if err := checkOptions(k, o, o.LabelsFromCorpus, n, m); err != nil {
		return nil, err
	}
	if err := checkAnchors(o.Anchors); err != nil {
		return nil, err
	}
	anchors, report := o.Anchors, o.Progress
	o = o.recorded()
	// A corpus vectorized from text keeps its vectorizer: the model reads
	// new text, and the anchors, as the corpus was read.
	var vec *vectorize.Vectorizer
	pb, err := src.Pipeline()
	if err != nil {
		return nil, err
	}
	if pb != nil {
		if vec, err = vectorize.UnmarshalFitted(pb, vocab); err != nil {
			return nil, fmt.Errorf("model: %s: %w", src.Dir(), err)
		}
	}
	var anchorNotes []string
	if vec != nil {
		if anchors, anchorNotes, err = AnalyzeAnchors(vec.Analyzer(), anchors); err != nil {
			return nil, err
		}
	}
	settings, err := fitSettings(src, o, anchors, k.newLimitsOnResume())
	if err != nil {
		return nil, err
	}
	store, err := shard.NewStore(stateDir)
	if err != nil {
		return nil, err
	}
	st, err := newFitStore(store, settings)
	if err != nil {
		return nil, err
	}
	// Another fit's checkpoint, or a damaged one, is refused before any
	// work, and left as it is.
	if _, err := st.LoadCheckpoint(); err != nil && !blocks.IsNotExist(err) {
		return nil, err
	}
	t0 := time.Now()
	if report == nil {
		report = func(progress.Step) {}
	}
	fitted, err := k.fitShards(ctx, &shardData{src: src, store: st, vocab: vocab, anchors: anchors, report: report}, o)
	if err != nil {
		return nil, err
	}
	fitted.Vectorizer = vec
	fitted.Info.Notes = append(anchorNotes, fitted.Info.Notes...)
	fitted.Info.Params = o
	fitted.Info.Corpus = "shards: " + src.Dir()
	fitted.Info.Documents = n
	fitted.Info.Seconds = time.Since(t0).Seconds()
	fitted.Info.Created = time.Now().UTC().Format(time.RFC3339)
	fitted.Info.Notes = append(fitted.Info.Notes, fmt.Sprintf("trained out of core over %d shards; its state is in %s", src.NumBlocks(), stateDir))
	return fitted, nil
}

// shardLabelNames returns the distinct labels of the corpus in sorted
// order (the in-memory numbering), reading only its labels file.
func shardLabelNames(src *shard.Source) ([]string, error) {
	man := src.Manifest()
	if man.Labels == "" {
		return nil, fmt.Errorf("model: %s has no labels file", src.Dir())
	}
	seen := map[string]bool{}
	for i := range man.Shards {
		ls, err := man.ReadLabels(src.Dir(), i)
		if err != nil {
			return nil, err
		}
		for _, l := range ls {
			for _, v := range l {
				seen[v] = true
			}
		}
	}
	if len(seen) == 0 {
		return nil, fmt.Errorf("model: no document of %s carries a label", src.Dir())
	}
	names := make([]string, 0, len(seen))
	for l := range seen {
		names = append(names, l)
	}
	slices.Sort(names)
	return names, nil
}

// blockShares returns each topic's share of Σ W·rowsum(H), reading W
// from the store block by block.
func blockShares(src blocks.Source, st blocks.Store, r *nmf.Model) ([]float64, error) {
	k, _ := r.H.Dims()
	col := make([]float64, k)
	for i := 0; i < src.NumBlocks(); i++ {
		_, rows := src.Span(i)
		buf := make([]float64, rows*k)
		if err := st.Load(r.WName, i, buf); err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
		for p, v := range buf {
			col[p%k] += v
		}
	}
	// topicShares over a one-row W holding the column sums.
	return topicShares(mat.NewDense(1, k, col), r.H), nil
}
