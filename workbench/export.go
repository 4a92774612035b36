package workbench

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/report"
)

// Export writes what (see Exports) of the current round to w: the model,
// the anchors file, the labels CSV, the HTML report (the model shown on
// the documents it was fitted on) or the `semitopic fit` command that
// fits the same model bit for bit. The model is always a cold fit of the
// round's state, as the command makes it: for a round that started from
// the previous round's model (a warm start), Export fits it cold first. The command reads the round's files in
// the project folder (its anchors, labels, stopwords and removed
// documents), so Export saves the round first if it is not yet saved.
func (s *Session) Export(w io.Writer, what string) error {
	r := s.current()
	switch what {
	case ExportModel:
		f, err := s.coldModel(r)
		if err != nil {
			return err
		}
		return model.Save(w, f)
	case ExportAnchors:
		return writeAnchors(w, r.state.Anchors)
	case ExportLabels:
		return WriteLabels(w, r.state.Labels)
	case ExportReport:
		return s.writeReport(w, r)
	case ExportCommand:
		args, err := s.Command()
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(w, shellJoin(args))
		return err
	}
	return fmt.Errorf("workbench: export %q: want one of %s", what, strings.Join(Exports(), ", "))
}

// coldModel returns the cold fit of r's state, what `semitopic fit`
// makes of the exported files: r's model when it is one, else (a round
// that started from the previous round's model) a cold fit made once.
func (s *Session) coldModel(r *round) (*model.Fitted, error) {
	s.mu.Lock()
	f := r.coldFitted
	s.mu.Unlock()
	switch {
	case r.cold:
		return r.fitted, nil
	case f != nil:
		return f, nil
	}
	spec := &fitSpec{d: r.d, st: r.state, seed: s.cfg.Seed, maxIter: s.cfg.MaxIter}
	f, err := fitCold(s.ctx, spec, s.idOf, nil)
	if err != nil {
		return nil, fmt.Errorf("workbench: the cold fit of round %d: %w", r.meta.Number, err)
	}
	f.Info.Corpus = s.c.Name
	s.mu.Lock()
	r.coldFitted = f
	s.mu.Unlock()
	return f, nil
}

// Command returns the arguments of the `semitopic fit` command (the
// program's name first) that fits the current round's model bit for bit,
// writing it to model.semitopic: the Config's Source, the kind, k, seed
// and iterations, the pipeline's flags when the Config gave a pipeline,
// and the round's files in the project folder.
func (s *Session) Command() ([]string, error) {
	r := s.current()
	if err := s.saveRound(r); err != nil {
		return nil, fmt.Errorf("workbench: saving round %d: %w", r.meta.Number, err)
	}
	s.mu.Lock()
	src, pargs := s.cfg.Source, s.cfg.PipelineArgs
	explicit := s.cfg.Pipeline != nil
	seed, maxIter := s.cfg.Seed, s.cfg.MaxIter
	s.mu.Unlock()
	if len(src) == 0 {
		return nil, errors.New("workbench: the session was opened without its Source, so the command cannot say how to read the corpus")
	}
	if explicit && !slices.ContainsFunc(pargs, func(a string) bool { return a == "--preset" || strings.HasPrefix(a, "--preset=") }) {
		// Without --preset, fit applies the flags to the kind's own
		// preset, which need not be the one the pipeline was made from.
		return nil, fmt.Errorf("workbench: the session was opened with a pipeline whose flags (Config.PipelineArgs %q) do not name its preset (--preset), so the command cannot make the same pipeline", pargs)
	}
	dir, err := filepath.Abs(s.roundPath(r.meta.Number))
	if err != nil {
		return nil, err
	}
	st := r.state
	args := []string{"semitopic", "fit", "--kind", st.Kind, "-k", strconv.Itoa(st.K), "--seed", strconv.FormatUint(seed, 10)}
	if maxIter > 0 {
		args = append(args, "--max-iter", strconv.Itoa(maxIter))
	}
	args = append(args, src...)
	if explicit {
		args = append(args, pargs...)
	}
	for _, f := range []struct {
		flag, file string
		use        bool
	}{
		{"--anchors", fileAnchors, len(st.Anchors) > 0},
		{"--labels-csv", fileLabels, len(st.Labels) > 0},
		{"--drop-docs", fileRemoved, len(st.Removed) > 0},
		{"--drop-terms", fileStopwords, len(st.Stopwords) > 0},
	} {
		if f.use {
			args = append(args, f.flag, filepath.Join(dir, f.file))
		}
	}
	// The workbench fits the kind's defaults: no automatic configuration,
	// for the kinds that have one.
	params, err := model.ParamsOf(st.Kind)
	if err != nil {
		return nil, err
	}
	if slices.ContainsFunc(params, func(p model.Param) bool { return p.Name == "auto" }) {
		args = append(args, "--auto=false")
	}
	if sr := r.fitted.Info.Params.SeedRank; sr > 0 {
		args = append(args, "--seed-rank", strconv.Itoa(sr))
	}
	if r.fitted.Info.Params.HoldLabels {
		args = append(args, "--hold-labels")
	}
	return append(args, "--out", "model.semitopic"), nil
}

// safeArg matches an argument a shell reads as it is.
var safeArg = regexp.MustCompile(`^[A-Za-z0-9_./=:,+@%-]+$`)

// shellJoin writes args as a POSIX shell reads them back.
func shellJoin(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if safeArg.MatchString(a) {
			q[i] = a
		} else {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

// writeReport writes the HTML report of r's model on the documents it was
// fitted on, labeled as the round's state labels them.
func (s *Session) writeReport(w io.Writer, r *round) error {
	docs := make([]corpus.Document, len(r.d.rows))
	labeled := false
	for row, i := range r.d.rows {
		docs[row] = s.c.Docs[i]
		docs[row].Labels = r.state.Labels[s.idOf[i]]
		labeled = labeled || len(docs[row].Labels) > 0
	}
	data := &report.Data{Docs: docs, X: r.d.x, Scope: "documents of the workbench's corpus"}
	if labeled {
		data.Training = "These are the documents the model was fitted on, and the labeled ones were its labels: the figures overstate how it does on new documents (the workbench's cross-validated estimate does not)."
		data.Overstated = true
	}
	f, err := s.coldModel(r)
	if err != nil {
		return err
	}
	title := fmt.Sprintf("%s model, workbench round %d", strings.ToUpper(r.state.Kind), r.meta.Number)
	return report.Write(s.ctx, w, f, data, report.Options{Title: title})
}
