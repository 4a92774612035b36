package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/model"
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
own labels with --labels-from-corpus, seed and exclusion words with --anchors
— prints its topics and saves everything needed to transform new documents
to --out (a .semitopic file, replaced only once the new model is complete).

Anchors file: one topic per line, "name: word1, word2:3, -word3" (# starts a
comment): seed words, each with an optional strength ("word:3"), and
exclusion words ("-word"), which the topic may not use. Words are read as the
pipeline reads the documents. A topic named like a label is that label's
topic, and a model steered by named topics predicts those names.

With labels, --auto (on by default) chooses the settings left unset by 3-fold
cross-validation over the labeled documents, prints every candidate's
accuracy beside a linear SVM's on the same labels, and keeps the fewest
topics within one standard error of the best; --auto=false fits the kind's
defaults. --out-of-core trains on a sharded corpus (--format shards) streamed
from disk, keeping the documents' state in --state; an interrupted fit
continues with the same command and --resume. An option left out takes the
kind's default; given, it must be in its range.

` + kindsHelp() + `
docs/cli.md lists each kind's options with their meaning, default and
values.`,
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
			if !useOld && !cmd.Flags().Changed("kind") {
				return fmt.Errorf("--kind is required (one of %s, or %s)", strings.Join(model.Kinds(), ", "), model.KindAuto)
			}
			params, err := model.ParamsOf(o.Kind)
			if err != nil {
				return err
			}
			if err := ff.check(cmd, o.Kind, labelsFromCorpus, outOfCore); err != nil {
				return err
			}
			given := modelOptionsGiven(cmd, &o, params)
			// The search needs labels.
			o.Auto = o.Auto && (labelsFromCorpus || ff.labels != "")
			o.LabelsFromCorpus = labelsFromCorpus
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
			if err := checkPositive("top", top); err != nil {
				return err
			}
			if anchorsPath != "" {
				if o.Anchors, err = model.ReadAnchors(anchorsPath); err != nil {
					return err
				}
			}
			if err := model.CheckOptions(o, given...); err != nil {
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
				o.Auto = false
				return runFitShards(cmd, o, args[0], out, stateDir, resume, asJSON, top)
			}
			if !cmd.Flags().Changed("preset") {
				pf.preset = model.DefaultPreset(o.Kind)
			}
			return runFit(cmd, &rf, &pf, &ff, o, args[0], out, asJSON, top)
		},
	}
	f := cmd.Flags()
	rf.register(f, true)
	pf.register(f)
	ff.register(f)
	f.StringVar(&o.Kind, "kind", "", "model kind: "+strings.Join(model.Kinds(), ", ")+", or auto (the best kind that learns from labels)")
	f.StringVar(&oldKind, "model", "", "deprecated: use --kind")
	_ = f.MarkHidden("model")
	registerModelOptions(f, &o)
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

func runFit(cmd *cobra.Command, rf *readerFlags, pf *pipelineFlags, ff *fitFiles, o model.Options, path, out string, asJSON bool, top int) error {
	ctx := cmd.Context()
	// Everything that can be checked without the corpus is checked first.
	// Without pipeline flags, the kind's own pipeline (with --kind auto,
	// each kind's own).
	var pl *vectorize.Pipeline
	// --drop-terms needs the pipeline whose vocabulary it edits: the
	// kind's own unless flags say otherwise.
	build := rf.format != "mtx" && rf.format != "uci" && (pf.changed(cmd) || ff.dropTerms != "")
	// --language auto reads the corpus first.
	if build && pf.language != "auto" {
		built, err := pf.build(cmd)
		if err != nil {
			return err
		}
		pl = &built
	}
	c, err := rf.read(ctx, cmd, path)
	if err != nil {
		return err
	}
	if build && pl == nil && c.Matrix == nil {
		if err := pf.detectLanguage(cmd, c.Docs); err != nil {
			return err
		}
		built, err := pf.build(cmd)
		if err != nil {
			return err
		}
		pl = &built
	}
	var labeled bool
	if c, pl, labeled, err = ff.apply(ctx, c, pl); err != nil {
		return err
	}
	o.LabelsFromCorpus = o.LabelsFromCorpus || labeled
	report, endBar := fitBar(cmd.ErrOrStderr(), o.MaxIter, o.Auto)
	o.Progress = report
	fitted, err := model.Fit(ctx, model.Text(c, pl), o)
	endBar()
	if err != nil {
		return err
	}
	topics, err := saveFitted(out, fitted, top)
	if err != nil {
		return err
	}
	warnConvergence(cmd.ErrOrStderr(), fitted.Info)
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
	switch {
	case s.Unseen == 1:
		fmt.Fprintf(w, "  (1 of them is the only labeled document of its label: held out, no method can predict it, and it counts as a miss in the cross-validated accuracies; the estimates give its label the labels' recall at one document)\n")
	case s.Unseen > 1:
		fmt.Fprintf(w, "  (%d of them are the only labeled documents of their labels outside their folds: held out, no method can predict them, and they count as misses in the cross-validated accuracies; the estimates give their labels the labels' recall at one document)\n", s.Unseen)
	}
	width := 0
	for _, c := range s.Candidates {
		width = max(width, len([]rune(c.Settings())))
	}
	fmt.Fprintf(w, "   %-*s  %-14s  %s\n", width, "candidate", "accuracy ± SD", "topics (of the fold models)")
	stopped := 0
	for i, c := range s.Candidates {
		mark := " "
		if i == s.Chosen {
			mark = "*"
		}
		est := estimateText(c.Estimate)
		if c.Stopped != "" {
			stopped++
			est = fmt.Sprintf("%5.1f%% fold 1 ", c.Accuracy)
			if n := len(c.Folds); n > 1 {
				est = fmt.Sprintf("%5.1f%% %d folds", c.Accuracy, n)
			}
		}
		fmt.Fprintf(w, " %s %-*s  %s  %3d\n", mark, width, c.Settings(), est, c.Topics)
	}
	if stopped > 0 {
		fmt.Fprintf(w, "   (%d not scored on every fold: too far behind the best of their kind on the folds scored to be chosen, they were stopped; --json says by how much)\n", stopped)
	}
	fmt.Fprintf(w, "   %-*s  %s\n", width, "linear SVM on the same labels (terms only)", estimateText(s.SVM))
	if s.Rule != "" {
		fmt.Fprintf(w, "chosen by %s\n", s.Rule)
	}
	best := s.ChosenCandidate()
	if !best.Scored() || !s.SVM.Scored() {
		return
	}
	e, v := s.Estimate, s.SVMEstimate
	if e == nil || v == nil {
		return
	}
	fmt.Fprintf(w, "estimated accuracy of the kept model: %.1f%% (95%% interval %.1f–%.1f%%, %d held-out documents), its cross-validated %.1f%%", e.Accuracy, e.Low, e.High, e.N, best.Accuracy)
	if e.Bias > 0 {
		// The candidates scored on every fold, which selectionBias compares.
		n := 0
		for _, c := range s.Candidates {
			if len(c.Folds) == s.Folds {
				n++
			}
		}
		fmt.Fprintf(w, " less %.1f points for having been chosen among %d candidates on the same folds", e.Bias, n)
	}
	corrections(w, e, s.Labeled)
	fmt.Fprintf(w, "\nlinear SVM on the same labels: %.1f%% (95%% interval %.1f–%.1f%%, its cross-validated %.1f%%", v.Accuracy, v.Low, v.High, s.SVM.Accuracy)
	corrections(w, v, s.Labeled)
	fmt.Fprintln(w, ")")
	if s.Uncertainty != "" {
		fmt.Fprintf(w, "note: %s\n", s.Uncertainty)
	}
	switch d := e.Accuracy - v.Accuracy; {
	case d >= 0.05 && e.Low > v.Accuracy:
		fmt.Fprintf(w, "kept %s: %.1f points above the linear SVM\n", best.Settings(), d)
	case d >= 0.05:
		fmt.Fprintf(w, "kept %s: %.1f points above the linear SVM, within the uncertainty of the estimates\n", best.Settings(), d)
	case d > -0.05:
		fmt.Fprintf(w, "kept %s: no better than the linear SVM\n", best.Settings())
	default:
		fmt.Fprintf(w, "kept %s; a linear SVM on these labels does better by %.1f points: the topic model does not pay off for prediction here\n", best.Settings(), -d)
	}
}

// corrections writes what an estimate adds to the folds' mean: each
// label's learning curve to all the labeled documents, and weighting the
// labels by their estimated shares of the corpus (model.Predictions.Estimate).
func corrections(w io.Writer, e *model.EstimateInterval, labeled int) {
	if math.Abs(e.Gain) >= 0.05 {
		fmt.Fprintf(w, ", %+.1f points for learning each label from all %d labeled documents", e.Gain, labeled)
	}
	if math.Abs(e.Shift) >= 0.05 {
		fmt.Fprintf(w, ", %+.1f points for the labels' shares of the documents without labels", e.Shift)
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
