package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/vectorize"
)

func newFitCmd() *cobra.Command {
	var rf readerFlags
	var pf pipelineFlags
	var ff fitFiles
	var o model.Options
	var oldKind, out, anchorsPath string
	var labelsFromCorpus, asJSON, outOfCore, resume bool
	var stateDir string
	var top int
	cmd := &cobra.Command{
		Use:   "fit --kind KIND --format F PATH --out model.semitopic",
		Short: "Fit a topic model on a corpus and save it",
		Long: `fit reads a corpus (PATH "-" reads standard input), runs the text pipeline
(the kind's default preset unless --preset or pipeline flags say otherwise),
fits a model of the given kind with the supervision you give — the corpus's
own labels with --labels-from-corpus, anchor words with --anchors — prints
its topics and saves everything needed to transform new documents to --out
(a .semitopic file, replaced only once the new model is complete).

Kinds and what steers them (labels: --labels-from-corpus; seed and
exclusion words: --anchors):
  tsnmf, ssnmf  labels, seed words or both; seed words alone label the
                documents holding seed words of one topic only
  nmf           seed words (unsupervised without them)
  corex         seed words, labels (which suggest anchors) or both
  lda           seed words (--seed-mode), labels (labeled LDA) or both
  theme         labels; exclusion words only
  auto          labels: every kind that learns from labels, each
                configured automatically with its own default pipeline
                (with --preset or pipeline flags: all on that pipeline),
                keeping the kind whose choice has the best
                cross-validated accuracy
Every kind takes exclusion words. A model steered by named topics predicts
those names.

Automatic configuration (--auto, on by default when the model learns from
labels): the settings you leave unset are chosen by 3-fold cross-validation
over the labeled documents (stratified by label; the unlabeled documents are
in every fit, never scored). Each kind tries three settings — tsnmf:
weighting inverse / none / none with 2k topics; ssnmf: λ = 100 × the labeled
share (the default) / a tenth of it / a tenth with 2k topics;
theme: separated with 3 subtopics / 1 subtopic, combined with 2; corex:
anchor strength β 1 / 3 / 10 — each with the three readouts (native: the
kind's own rule; topics: a logistic regression on the topic weights; terms+
topics: a linear SVM on the terms beside the topic weights), so a search
costs 9 fits plus the final one (tsnmf with every document labeled: 6, as
its 2k topics could only stay empty). It keeps the candidate with the fewest
topics among those within one standard error of the best mean accuracy (at
least 1 point), and among those the best: a larger model must be clearly
better. fit prints every candidate's cross-validated accuracy and number of
topics, the one it kept and the rule that chose it, and the same estimate for
a linear SVM trained on the same labels, so that you see whether the topic
model helps on your data. Flags you give fix their setting in every
candidate; --auto=false fits the kind's defaults as they are. With no label
held by two labeled documents nothing can be held out: fit says so, shows no
accuracy, and fits the defaults, read out through the topics (tsnmf: its own
rule; --kind auto: tsnmf).

Number flags left out take the kind's default; given, they must be in range:
-k, --max-iter, --subtopics and --restarts at least 1, --tol and --lambda above
0, --beta (like a seed word's strength) from 1e-6 to 1e6; --new-topics 0 is
none.

Anchors file: one topic per line, "name: word1, word2:3, -word3" (# starts
a comment): seed words, with an optional strength per word as "word:3", and
exclusion words, "-word", which the topic may not use: its weight in the
topic is exactly zero. Words and phrases are read as the pipeline reads the
documents ("Games" is the vocabulary's "game"; "new york" needs bigrams,
--ngrams 1-2); a topic none of whose seed words is in the vocabulary says
so in its name. A topic named like a label is that label's topic. How seed
words steer each kind: corex anchors them (strength β, --beta); nmf, tsnmf
and ssnmf fit a pseudo-document of the topic's seed words beside the
documents (Guided NMF; its weight, which --beta multiplies, is an average
topic's share of the corpus scaled by the odds of the share the seed words
hold where they occur, so that no topic is made of its seed words alone); lda raises their prior in the
topic (--seed-mode prior, the default: --beta times each word's corpus
count in extra pseudo-counts) or forbids them every other topic
(zlabels), or both. Whether seed words beat simply counting them in each
document depends on the corpus: docs/results/seed-words.md measures it.

Out of core (--out-of-core, with --format shards; kinds nmf and tsnmf,
with exclusion words only, tsnmf with --labels-from-corpus; corex and batch
lda, with or without --anchors): each
iteration streams the shards from disk and keeps the documents' state in a
state folder (--state, default: the model's path with .state for its
extension), so that memory holds two shards and the k × terms topics. The
fit prints its progress with an estimate of the time left and its peak
memory; it saves its state after every pass, and an interrupted fit
continues with the same command and --resume. NMF starts from random-acol
out of core (NNDSVD needs an SVD of the whole matrix).`,
		Example: `  semitopic fit --kind tsnmf --format reuters-nltk ../shared/data/reuters21578-nltk-apte/reuters.tar.gz \
      --subset train --labels-from-corpus --preset tsnmf --out reuters.semitopic
  semitopic fit --kind nmf -k 20 --format mtx X.mtx --out nmf.semitopic
  semitopic fit --kind nmf -k 100 --format shards corpus.shards --out-of-core --out big.semitopic`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			useOld, err := renamedFlag(cmd, "model", "kind")
			if err != nil {
				return err
			}
			if useOld {
				o.Kind = oldKind
			}
			if o.Kind == "" {
				return fmt.Errorf("--kind is required (one of %s)", strings.Join(model.Kinds(), ", "))
			}
			if !slices.Contains(model.Kinds(), o.Kind) && o.Kind != model.KindAuto {
				return fmt.Errorf("--kind: unknown kind %q (want %s or auto)", o.Kind, strings.Join(model.Kinds(), ", "))
			}
			if err := ff.check(cmd, o.Kind, labelsFromCorpus, outOfCore); err != nil {
				return err
			}
			// The search needs labels and a kind that learns from them.
			o.Auto = o.Auto && (labelsFromCorpus || ff.labels != "") && (o.Kind == model.KindAuto || slices.Contains(model.SupervisedKinds(), o.Kind))
			if o.Kind == model.KindAuto && !o.Auto {
				return fmt.Errorf("--kind auto chooses among the kinds that learn from labels: it needs --labels-from-corpus and --auto")
			}
			if o.Readout != "" && !slices.Contains(model.Readouts(), o.Readout) {
				return fmt.Errorf("--readout: unknown readout %q (want %s)", o.Readout, strings.Join(model.Readouts(), ", "))
			}
			if err := checkOut("out", out, false, ".semitopic"); err != nil {
				return err
			}
			outs := []ioPath{{name: "--out", path: out}}
			if outOfCore {
				sd, name := stateDir, "--state"
				if sd == "" {
					sd, name = defaultStateDir(out), "--state (default: beside --out)"
				}
				outs = append(outs, ioPath{name: name, path: sd, folder: true})
			}
			if err := checkNoOverwrite(append(append(readerInputs(&rf, args[0]), ioPath{name: "--anchors", path: anchorsPath}), ff.inputs()...), outs); err != nil {
				return err
			}
			if err := checkFinite(cmd, "tol", "lambda", "beta"); err != nil {
				return err
			}
			if err := checkPositive("top", top); err != nil {
				return err
			}
			if err := checkFitNumbers(cmd, o); err != nil {
				return err
			}
			if outOfCore || resume || stateDir != "" {
				if !outOfCore {
					return fmt.Errorf("--state and --resume apply to --out-of-core fits")
				}
				if rf.format != "shards" {
					return fmt.Errorf("--out-of-core reads a sharded corpus: --format shards (write one with semitopic vectorize --shards)")
				}
				if pf.changed(cmd) || cmd.Flags().Changed("readout") {
					return fmt.Errorf("--out-of-core: pipeline flags and readouts apply to in-memory fits (the corpus was vectorized when it was sharded)")
				}
				if anchorsPath != "" {
					var err error
					if o.Anchors, err = model.ReadAnchors(anchorsPath); err != nil {
						return err
					}
				}
				o.Auto, o.LabelsFromCorpus = false, labelsFromCorpus
				return runFitShards(cmd, o, args[0], out, stateDir, resume, asJSON, top)
			}
			if !cmd.Flags().Changed("preset") {
				pf.preset = model.DefaultPreset(o.Kind)
			}
			return runFit(cmd, &rf, &pf, &ff, o, args[0], out, anchorsPath, labelsFromCorpus, asJSON, top)
		},
	}
	f := cmd.Flags()
	rf.register(f, true)
	pf.register(f)
	ff.register(f)
	f.StringVar(&o.Kind, "kind", "", "model kind: "+strings.Join(model.Kinds(), ", ")+", or auto (the best kind that learns from labels)")
	f.BoolVar(&o.Auto, "auto", true, "choose the settings left unset by cross-validation over the labeled documents (models supervised by labels)")
	f.StringVar(&o.Readout, "readout", "", "how a model supervised by labels predicts: "+strings.Join(model.Readouts(), ", ")+" (default: chosen by --auto, else native)")
	f.StringVar(&oldKind, "model", "", "deprecated: use --kind")
	_ = f.MarkHidden("model")
	f.IntVarP(&o.K, "topics", "k", 0, "number of topics (tsnmf, ssnmf: default the number of labels)")
	f.Uint64Var(&o.Seed, "seed", 0, "seed of every random choice")
	f.IntVar(&o.MaxIter, "max-iter", 0, "maximum iterations, at least 1 (default: the kind's)")
	f.Float64Var(&o.Tol, "tol", 0, "stopping tolerance, a finite number > 0 (default: the kind's)")
	f.StringVar(&o.Loss, "loss", "", "nmf/tsnmf/theme: frobenius or kl; ssnmf: F,F F,D D,F or D,D")
	f.StringVar(&o.Init, "init", "", "initialisation: nmf "+strings.Join(model.Inits(model.KindNMF), ", ")+"; tsnmf those and label-mean; theme "+strings.Join(model.Inits(model.KindTheme), ", "))
	f.StringVar(&o.Weighting, "weighting", "", "tsnmf error weighting: inverse (default) or none")
	f.StringVar(&o.Method, "method", "", "lda learning method: batch (default) or online")
	f.IntVar(&o.Subtopics, "subtopics", 0, "theme: subtopics per theme, at least 1 (default 3)")
	f.StringVar(&o.Mode, "mode", "", "theme training: separated (default, one model per theme) or combined")
	f.BoolVar(&o.NoThemeBackground, "no-theme-background", false, "theme, separated: a theme's labeled documents may not use its background topic")
	f.IntVar(&o.NewTopics, "new-topics", 0, "theme: extra subtopics allowed only in unlabeled documents (0: none)")
	f.Float64Var(&o.Lambda, "lambda", 0, "ssnmf: weight of the supervision term, a number > 0 (default: chosen from the labeled share)")
	f.Float64Var(&o.Beta, "beta", 0, "seed words' default strength: corex anchor strength β (default 3); nmf, tsnmf, ssnmf: multiplier of the seed pseudo-documents' weight (default 1); lda: seed prior strength (default 1)")
	f.StringVar(&o.SeedMode, "seed-mode", "", "lda: how seed words steer their topics: prior (default, a larger prior), zlabels (zero weight outside their topics) or both")
	f.IntVar(&o.Restarts, "restarts", 0, "corex: seeds tried, at least 1, keeping the highest total correlation")
	f.BoolVar(&labelsFromCorpus, "labels-from-corpus", false, "supervise with the corpus's own document labels")
	f.StringVar(&anchorsPath, "anchors", "", "anchors file (name: word1, word2:3, -word3): seed words (corex, nmf, tsnmf, ssnmf, lda) and exclusion words (every kind)")
	f.StringVarP(&out, "out", "o", "", "model file to write (.semitopic)")
	f.BoolVar(&asJSON, "json", false, "print the summary as JSON")
	f.IntVar(&top, "top", 8, "top words to print per topic")
	f.BoolVar(&outOfCore, "out-of-core", false, "train streaming a sharded corpus from disk (--format shards; nmf, tsnmf, corex, lda)")
	f.StringVar(&stateDir, "state", "", "out of core: folder of the documents' state and the checkpoint (default: beside --out, extension .state)")
	f.BoolVar(&resume, "resume", false, "out of core: continue the interrupted fit whose checkpoint is in --state")
	return cmd
}

// checkFitNumbers refuses the numeric flags of fit given values that the
// options would not read as given: 0, for most, means the kind's default
// in model.Options, so an explicit --subtopics 0 or --max-iter 0 would
// silently fit something else. Each error names the flag and the range.
func checkFitNumbers(cmd *cobra.Command, o model.Options) error {
	fs := cmd.Flags()
	for _, f := range []struct {
		name string
		v    int
		min  int
	}{{"topics", o.K, 1}, {"max-iter", o.MaxIter, 1}, {"subtopics", o.Subtopics, 1}, {"restarts", o.Restarts, 1}, {"new-topics", o.NewTopics, 0}} {
		if f.v >= 0 && (!fs.Changed(f.name) || f.v >= f.min) {
			continue
		}
		flag := "--" + f.name
		if sh := fs.Lookup(f.name).Shorthand; sh != "" {
			flag = "-" + sh + "/" + flag
		}
		if f.min == 0 {
			return fmt.Errorf("%s %d: want a number ≥ 0 (0: none)", flag, f.v)
		}
		return fmt.Errorf("%s %d: want a number ≥ %d (leave the flag out for the kind's default)", flag, f.v, f.min)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"tol", o.Tol}, {"lambda", o.Lambda}} {
		if fs.Changed(f.name) && f.v == 0 {
			return fmt.Errorf("--%s 0: want a finite number > 0 (leave the flag out for the kind's default)", f.name)
		}
	}
	if fs.Changed("beta") && (math.IsNaN(o.Beta) || o.Beta < model.MinStrength || o.Beta > model.MaxStrength) {
		return fmt.Errorf("--beta %v: want a number from %g to %g (leave the flag out for the kind's default)", o.Beta, model.MinStrength, model.MaxStrength)
	}
	return nil
}

func runFit(cmd *cobra.Command, rf *readerFlags, pf *pipelineFlags, ff *fitFiles, o model.Options, path, out, anchorsPath string, labelsFromCorpus, asJSON bool, top int) error {
	ctx := cmd.Context()
	// Everything that can be checked without the corpus is checked first.
	var sup model.Supervision
	var err error
	if anchorsPath != "" {
		if sup.Anchors, err = model.ReadAnchors(anchorsPath); err != nil {
			return err
		}
	}
	var pl vectorize.Pipeline
	if rf.format != "mtx" && rf.format != "uci" {
		if pl, err = pf.build(cmd); err != nil {
			return err
		}
	}
	c, err := rf.read(ctx, cmd, path)
	if err != nil {
		return err
	}
	var labeled bool
	if c, pl, labeled, err = ff.apply(ctx, c, pl); err != nil {
		return err
	}
	labelsFromCorpus = labelsFromCorpus || labeled
	var bar *progressbar.ProgressBar
	maxIter := o.MaxIter
	if maxIter == 0 {
		maxIter = 200
	}
	if isTerminal(cmd.ErrOrStderr()) {
		bar = progressbar.NewOptions(maxIter, progressbar.OptionSetWriter(cmd.ErrOrStderr()),
			progressbar.OptionSetDescription("fitting"), progressbar.OptionShowCount(),
			progressbar.OptionSetWidth(30), progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
	}
	fitNo, last := 1, 0
	report := func(st progress.Step) {
		iter, obj := st.Iter, st.Objective
		if bar == nil {
			return
		}
		if iter < last {
			fitNo++ // the automatic configuration's next fit
		}
		last = iter
		what := "fitting"
		if o.Auto {
			what = fmt.Sprintf("fit %d (cross-validation, then the final fit)", fitNo)
		}
		if !math.IsNaN(obj) {
			what += fmt.Sprintf(", objective %.6g", obj)
		}
		bar.Describe(what)
		_ = bar.Set(min(iter, maxIter))
	}
	var fitted *model.Fitted
	o.Supervision, o.LabelsFromCorpus, o.Progress = sup, labelsFromCorpus, report
	if o.Kind == model.KindAuto && c.Matrix == nil && !pf.changed(cmd) {
		// Each kind with its own default pipeline, the best kept.
		fitted, err = model.FitBestKind(ctx, c, o)
	} else {
		fitted, err = model.FitCorpus(ctx, c, pl, o)
	}
	if bar != nil {
		_ = bar.Finish()
	}
	if err != nil {
		return err
	}
	topics, err := saveFitted(out, fitted, top)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		res := map[string]any{"model": out, "info": fitted.Info, "topics": topics}
		if len(fitted.Dropped) > 0 {
			res["dropped"] = fitted.Dropped
		}
		return enc.Encode(res)
	}
	w := cmd.OutOrStdout()
	empty := ""
	if n := len(model.EmptyTopics(topics)); n > 0 {
		empty = fmt.Sprintf(" (%d of them empty)", n)
	}
	fmt.Fprintf(w, "%s model, %d topics%s, fitted on %d documents × %d terms in %.2fs", fitted.Model.Kind(), fitted.Model.NumTopics(), empty,
		fitted.Info.Documents, len(fitted.Vocab), fitted.Info.Seconds)
	if fitted.Info.Iterations > 0 {
		fmt.Fprintf(w, " (%d iterations, objective %.6g)", fitted.Info.Iterations, fitted.Info.Objective)
	}
	fmt.Fprintln(w)
	if s := droppedSummary(len(c.Docs), fitted.Dropped); s != "" {
		fmt.Fprintf(w, "note: %s\n", s)
	}
	if n := fitted.Info.EmptyDocuments; n > 0 {
		fmt.Fprintf(w, "note: %d of the %d documents in the fit have no term of the vocabulary; they carry no information\n", n, fitted.Info.Documents)
	}
	for _, n := range fitted.Info.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if s := fitted.Info.Search; s != nil {
		printSearch(w, s)
		if len(s.Kinds) > 0 {
			fmt.Fprintln(w, "each kind's choice:")
			width := 0
			for _, k := range s.Kinds {
				width = max(width, len([]rune(k.Settings())))
			}
			for _, k := range s.Kinds {
				fmt.Fprintf(w, "   %-*s  %s\n", width, k.Settings(), estimateText(k.Estimate))
			}
		}
	}
	printTopics(w, topics)
	fmt.Fprintf(w, "saved %s\n", out)
	return nil
}

// saveFitted saves a fitted model to out and returns its topics, top words
// each.
func saveFitted(out string, fitted *model.Fitted, top int) ([]model.Topic, error) {
	if err := model.SaveFile(out, fitted); err != nil {
		return nil, err
	}
	return fitted.Model.Topics(top)
}

// droppedSummary says how many of the total documents the pipeline's
// document filters dropped, by rule, with the first IDs of each.
func droppedSummary(total int, dropped []vectorize.Dropped) string {
	if len(dropped) == 0 {
		return ""
	}
	byRule := map[string][]string{}
	var rules []string
	for _, d := range dropped {
		if _, ok := byRule[d.Rule]; !ok {
			rules = append(rules, d.Rule)
		}
		byRule[d.Rule] = append(byRule[d.Rule], d.ID)
	}
	var parts []string
	for _, r := range rules {
		ids := byRule[r]
		ex := ids[:min(len(ids), 3)]
		more := ""
		if len(ids) > len(ex) {
			more = ", …"
		}
		parts = append(parts, fmt.Sprintf("%d with %s, such as %s%s", len(ids), r, strings.Join(ex, ", "), more))
	}
	return fmt.Sprintf("the pipeline's document filters dropped %d of the %d documents before the fit: %s (--json lists them all)",
		len(dropped), total, strings.Join(parts, "; "))
}

// printSearch reports an automatic configuration: every candidate, the one
// kept, and how it compares with a linear SVM on the same labels.
func printSearch(w io.Writer, s *model.Search) {
	if s.Note != "" {
		fmt.Fprintf(w, "automatic configuration: %s\n", s.Note)
		return
	}
	fmt.Fprintf(w, "automatic configuration: %d-fold cross-validation over the %d labeled documents, %d fits in %.1fs\n", s.Folds, s.Labeled, s.Fits, s.Seconds)
	if s.Scored < s.Labeled {
		fmt.Fprintf(w, "  (%d of them scored: the others are the only labeled documents of their label, which no fold without them can predict)\n", s.Scored)
	}
	width := 0
	for _, c := range s.Candidates {
		width = max(width, len([]rune(c.Settings())))
	}
	fmt.Fprintf(w, "   %-*s  %-14s  %s\n", width, "candidate", "accuracy ± SD", "topics (of the fold models)")
	for i, c := range s.Candidates {
		mark := " "
		if i == s.Chosen {
			mark = "*"
		}
		fmt.Fprintf(w, " %s %-*s  %s  %3d\n", mark, width, c.Settings(), estimateText(c.Estimate), c.Topics)
	}
	fmt.Fprintf(w, "   %-*s  %s\n", width, "linear SVM on the same labels (terms only)", estimateText(s.SVM))
	if s.Rule != "" {
		fmt.Fprintf(w, "chosen by %s\n", s.Rule)
	}
	best := s.ChosenCandidate()
	if !best.Scored() || !s.SVM.Scored() {
		return
	}
	switch d := best.Accuracy - s.SVM.Accuracy; {
	case d >= 0.05:
		fmt.Fprintf(w, "kept %s: %.1f points above the linear SVM (cross-validated accuracy %.1f%% against %.1f%%)\n", best.Settings(), d, best.Accuracy, s.SVM.Accuracy)
	case d > -0.05:
		fmt.Fprintf(w, "kept %s: no better than the linear SVM (cross-validated accuracy %.1f%% against %.1f%%)\n", best.Settings(), best.Accuracy, s.SVM.Accuracy)
	default:
		fmt.Fprintf(w, "kept %s; a linear SVM on these labels does better (cross-validated accuracy %.1f%% against %.1f%%): the topic model does not pay off for prediction here\n", best.Settings(), best.Accuracy, s.SVM.Accuracy)
	}
}

// estimateText shows a cross-validated accuracy, or says that it was not
// measured.
func estimateText(e model.Estimate) string {
	if !e.Scored() {
		return "  not scored  "
	}
	return fmt.Sprintf("%5.1f%% ± %4.1f", e.Accuracy, e.SD)
}

// printTopics lists topics with their top words, the empty ones
// (model.Topic.Empty) only counted, once.
func printTopics(w io.Writer, topics []model.Topic) {
	width := 0
	for _, t := range topics {
		if !t.Empty {
			width = max(width, len([]rune(t.Name)))
		}
	}
	for _, t := range topics {
		if t.Empty {
			continue
		}
		var words []string
		for _, wd := range t.Words {
			words = append(words, wd.Word)
		}
		extra := ""
		if t.Weight > 0 {
			extra = fmt.Sprintf(" (%4.1f%%)", 100*t.Weight)
		}
		if t.Label != "" && t.Label != t.Name {
			extra += " → " + t.Label
		}
		fmt.Fprintf(w, "  %-*s%s  %s\n", width, t.Name, extra, strings.Join(words, " "))
	}
	if s := emptyTopicsLine(topics); s != "" {
		fmt.Fprintf(w, "  %s\n", s)
	}
}

// emptyTopicsLine says how many of the topics are empty, naming the
// first few ("" when none is).
func emptyTopicsLine(topics []model.Topic) string {
	empty := model.EmptyTopics(topics)
	if len(empty) == 0 {
		return ""
	}
	var names []string
	for _, t := range empty[:min(len(empty), 3)] {
		names = append(names, t.Title())
	}
	more := ""
	if len(empty) > 3 {
		more = ", …"
	}
	what := "topics"
	if len(empty) == 1 {
		what = "topic"
	}
	return fmt.Sprintf("(%d empty %s, not listed: no training document uses them; %s%s)", len(empty), what, strings.Join(names, ", "), more)
}
