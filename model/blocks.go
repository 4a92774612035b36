package model

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/lda"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/vectorize"
)

// OutOfCoreKinds lists the kinds FitShards trains out of core.
func OutOfCoreKinds() []string { return []string{KindNMF, KindTSNMF, KindCorEx, KindLDA} }

// FitShards fits a model out of core on the sharded corpus src: each
// iteration streams the shards from disk, the document-side state (NMF's
// W, CorEx's p(y|x)) is kept per shard in a store in stateDir, and memory
// holds the topic-side state, O(k·terms), besides two shards. The kinds
// are those of OutOfCoreKinds; a TS-NMF model reads its labels from the
// corpus's labels file (o.LabelsFromCorpus must be set), a CorEx or LDA
// model takes anchor words (o.Anchors; LDA takes no labels out of core),
// NMF and TS-NMF models exclusion words (seed words need the corpus in
// memory and are refused). The automatic configuration's
// cross-validation and the readouts other than native need the corpus in
// memory and are refused. A corpus that semitopic vectorize --shards made
// from text keeps its vectorizer (pipeline.json), and the model gets it;
// otherwise the model, like one fitted on a matrix, takes matrices only.
//
// The checkpoint records the fit's settings (kind, options, anchors,
// corpus): a fit whose state folder holds another fit's checkpoint is
// refused with a *StateMismatchError before any work, and the checkpoint
// is left as it was. A state folder this call creates is removed when the
// fit fails before saving a checkpoint (nothing in it could be resumed).
func FitShards(ctx context.Context, src *shard.Source, stateDir string, o Options) (*Fitted, error) {
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
	anchors := o.Anchors
	report := o.Progress
	o = o.recorded()
	if !slices.Contains(OutOfCoreKinds(), o.Kind) {
		return nil, fmt.Errorf("model: %s models are not trained out of core (out of core: %v)", o.Kind, OutOfCoreKinds())
	}
	if o.Readout != "" && o.Readout != ReadoutNative {
		return nil, fmt.Errorf("model: the %s readout is trained in memory; out of core the model predicts with its own rule", o.Readout)
	}
	n, m := src.Dims()
	vocab, err := src.Vocab()
	if err != nil {
		return nil, err
	}
	if vocab == nil {
		return nil, fmt.Errorf("model: %s has no vocabulary file", src.Dir())
	}
	if err := o.check(n, m); err != nil {
		return nil, err
	}
	if err := checkAnchors(anchors); err != nil {
		return nil, err
	}
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
	settings, err := fitSettings(src, o, anchors)
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
	var fitted *Fitted
	switch o.Kind {
	case KindNMF:
		fitted, err = fitNMFShards(ctx, src, st, vocab, anchors, o, report)
	case KindTSNMF:
		fitted, err = fitTSNMFShards(ctx, src, st, vocab, anchors, o, report)
	case KindCorEx:
		fitted, err = fitCorExShards(ctx, src, st, vocab, anchors, o, report)
	case KindLDA:
		fitted, err = fitLDAShards(ctx, src, st, vocab, anchors, o, report)
	}
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

func fitNMFShards(ctx context.Context, src *shard.Source, st blocks.Store, vocab []string, anchors []Anchor, o Options, report progress.Func) (*Fitted, error) {
	if err := rejectUnused(o, KindNMF, map[string]bool{"loss": true, "init": true}); err != nil {
		return nil, err
	}
	if o.LabelsFromCorpus {
		return nil, fmt.Errorf("model: plain NMF is unsupervised; use tsnmf for labels")
	}
	if o.K < 1 {
		return nil, fmt.Errorf("model: nmf needs k ≥ 1 topics")
	}
	loss, init, err := nmfOptions(o)
	if err != nil {
		return nil, err
	}
	if seeded(anchors) {
		return nil, errSeedsOutOfCore(KindNMF)
	}
	names, _, err := anchorTopicNames(KindNMF, anchors, vocab, o.K)
	if err != nil {
		return nil, err
	}
	seeds, notes, err := anchorTerms(KindNMF, anchors, names, vocab)
	if err != nil {
		return nil, err
	}
	r, err := nmf.FitBlocks(ctx, src, st, nmf.Config{K: o.K, Loss: loss, Init: init, Seed: o.Seed, MaxIter: o.MaxIter, Tol: o.Tol, Seeds: seeds, Progress: report})
	if err != nil {
		return nil, err
	}
	shares, err := blockShares(src, st, r)
	if err != nil {
		return nil, err
	}
	m := &NMF{kind: KindNMF, H: r.H, Loss: loss, TopicNames: names, Vocab: vocab, weights: shares}
	if err := m.prepare(); err != nil {
		return nil, err
	}
	return &Fitted{Model: m, Vocab: vocab, Info: Info{Objective: r.FinalObjective(), Iterations: r.Iterations, Convergence: r.Convergence,
		Notes: append(notes, "out of core, NMF starts from random-acol (Langville et al.): NNDSVD would need an SVD of the whole matrix")}}, nil
}

func fitTSNMFShards(ctx context.Context, src *shard.Source, st blocks.Store, vocab []string, anchors []Anchor, o Options, report progress.Func) (*Fitted, error) {
	if err := rejectUnused(o, KindTSNMF, map[string]bool{"loss": true, "init": true, "weighting": true}); err != nil {
		return nil, err
	}
	if !o.LabelsFromCorpus {
		return nil, fmt.Errorf("model: tsnmf needs labeled documents (--labels-from-corpus)")
	}
	names, err := shardLabelNames(src)
	if err != nil {
		return nil, err
	}
	k := o.K
	if k == 0 {
		k = len(names)
	}
	if k < len(names) {
		return nil, fmt.Errorf("model: k = %d is smaller than the %d labels", k, len(names))
	}
	loss, init, err := nmfOptions(o)
	if err != nil {
		return nil, err
	}
	weighting, err := tsnmfWeighting(o.Weighting)
	if err != nil {
		return nil, err
	}
	if seeded(anchors) {
		return nil, errSeedsOutOfCore(KindTSNMF)
	}
	seeds, notes, err := anchorTerms(KindTSNMF, anchors, tsnmfTopicNames(names, k), vocab)
	if err != nil {
		return nil, err
	}
	r, err := nmf.TSNMFBlocks(ctx, src, st, nmf.TSNMFConfig{
		Config:     nmf.Config{K: k, Loss: loss, Init: init, Seed: o.Seed, MaxIter: o.MaxIter, Tol: o.Tol, Seeds: seeds, Progress: report},
		LabelNames: names,
		Weighting:  weighting,
	})
	if err != nil {
		return nil, err
	}
	shares, err := blockShares(src, st, &r.Model)
	if err != nil {
		return nil, err
	}
	m := &NMF{kind: KindTSNMF, H: r.H, Loss: loss, TopicNames: r.TopicNames, LabelNames: names, Vocab: vocab, weights: shares}
	if err := m.prepare(); err != nil {
		return nil, err
	}
	return &Fitted{Model: m, Vocab: vocab, Info: Info{Objective: r.FinalObjective(), Iterations: r.Iterations, Convergence: r.Convergence, Notes: append(r.Notes, notes...)}}, nil
}

// errSeedsOutOfCore refuses seed words in an out-of-core NMF-family fit.
func errSeedsOutOfCore(kind string) error {
	return fmt.Errorf("model: out of core, %s models take exclusion words (topic: -word) but not seed words; fit the corpus in memory for seed words (guided NMF)", kind)
}

func fitCorExShards(ctx context.Context, src *shard.Source, st blocks.Store, vocab []string, sup []Anchor, o Options, report progress.Func) (*Fitted, error) {
	if err := rejectUnused(o, KindCorEx, map[string]bool{"beta": true, "restarts": true}); err != nil {
		return nil, err
	}
	if o.Beta < 0 || math.IsNaN(o.Beta) || math.IsInf(o.Beta, 0) || o.Restarts < 0 {
		return nil, fmt.Errorf("model: corex needs a finite beta ≥ 0 and restarts ≥ 0")
	}
	if o.LabelsFromCorpus {
		return nil, fmt.Errorf("model: out of core, corex takes anchor words; the anchors that labels suggest are found in memory")
	}
	names, seeded, err := anchorNames(sup, vocab)
	if err != nil {
		return nil, err
	}
	labelNames := append([]string(nil), names[:seeded]...)
	names, k, err := corexTopics(names, o.K, len(vocab))
	if err != nil {
		return nil, err
	}
	seeds, notes, err := anchorTerms(KindCorEx, sup, names, vocab)
	if err != nil {
		return nil, err
	}
	m, err := corex.FitBlocks(ctx, src, st, corex.Config{
		K: k, MaxIter: o.MaxIter, Tol: o.Tol, Seed: o.Seed, Restarts: o.Restarts, Vocab: vocab,
		Seeds: seeds, KeepOrder: keepOrder(sup, seeds), Beta: o.Beta, Progress: report,
	})
	if err != nil {
		return nil, err
	}
	c, info := corexModel(m, unseededNames(names, sup, nil, vocab), labelNames, sup, vocab, Info{Notes: notes})
	return &Fitted{Model: c, Vocab: vocab, Info: info}, nil
}

func fitLDAShards(ctx context.Context, src *shard.Source, st blocks.Store, vocab []string, anchors []Anchor, o Options, report progress.Func) (*Fitted, error) {
	if o.LabelsFromCorpus {
		return nil, fmt.Errorf("model: out of core, LDA takes anchor words but no labels (labeled LDA is trained in memory)")
	}
	docs, _ := src.Dims()
	lo, sv, err := ldaSetup(o, Supervision{Anchors: anchors}, vocab, docs, report)
	if err != nil {
		return nil, err
	}
	if lo.Method == lda.Online && src.NumBlocks() > 1 {
		// lda.FitBlocks runs it, but every mini-batch is a pass that reads
		// every shard.
		return nil, fmt.Errorf("model: online LDA out of core would read all %d shards for each mini-batch of documents; use the batch method (the default)", src.NumBlocks())
	}
	lm, err := lda.FitBlocks(ctx, src, st, lo)
	if err != nil {
		return nil, err
	}
	m, info := ldaModel(lm, vocab, sv)
	return &Fitted{Model: m, Vocab: vocab, Info: info}, nil
}
