package workbench

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/progress"
)

// Session is a person's workbench over one corpus. It is safe for
// concurrent use: the views answer from the current round while a refit
// runs.
type Session struct {
	cfg  Config
	dir  string
	c    *corpus.Corpus
	ids  map[string]int
	idOf []string
	vec  *vectors
	proj Project

	// ctx lives as long as the session; Close cancels it.
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup
	// saveMu serializes the writes into the project folder, emitMu the
	// calls of Config.Progress.
	saveMu sync.Mutex
	emitMu sync.Mutex

	mu sync.Mutex
	// st is the state at version; fitted the version the current round
	// cur shows.
	st      *State
	version int
	fitted  int
	cur     *round
	// log describes the change that made each version (this session's).
	log map[int]string
	// pending describes the changes since cur's state, and lineage the
	// origin of each topic of st in cur (fitSpec.lineage).
	pending []string
	lineage map[string][]string
	// rounds are the rounds in memory (at most keepRounds besides the
	// current one), metas the summaries of every saved round and saved
	// the rounds whose folder is in place.
	rounds map[int]*round
	metas  map[int]*RoundSummary
	saved  map[int]bool
	redo   []int
	next   int
	// job is the refit in flight; waiting is set while the pause after
	// an edit runs (timer).
	job     *job
	timer   *time.Timer
	waiting bool
	prog    *Progress
	// errMsg says why the refit of errVersion failed.
	errMsg     string
	errVersion int
	// estCancel stops the current round's accuracy estimate.
	estCancel context.CancelFunc
	notes     []string
	// changed is closed, and replaced, at every change (Wait).
	changed  chan struct{}
	closed   bool
	lastEmit time.Time
}

// job is one refit.
type job struct {
	version int
	cancel  context.CancelFunc
	started time.Time
}

// keepRounds is how many rounds besides the current one stay in memory,
// so that undo and redo over them need no work.
const keepRounds = 6

// errClosed refuses actions on a closed session.
var errClosed = errors.New("workbench: the session is closed")

// Open opens a session: it resumes the project in cfg.Project when the
// folder holds one, else it vectorizes the corpus, fits the first round
// and saves it there. ctx bounds the work Open does; the session's
// background work lasts until Close.
func Open(ctx context.Context, cfg Config) (*Session, error) {
	if cfg.Corpus == nil || len(cfg.Corpus.Docs) == 0 {
		return nil, errors.New("workbench: no corpus, or a corpus without documents")
	}
	if cfg.Project == "" {
		return nil, errors.New("workbench: no project folder (Config.Project)")
	}
	ids, err := docIndex(cfg.Corpus.Docs)
	if err != nil {
		return nil, fmt.Errorf("workbench: %s: %w", cfg.Corpus.Name, err)
	}
	s := &Session{cfg: cfg, dir: cfg.Project, c: cfg.Corpus, ids: ids, log: map[int]string{},
		rounds: map[int]*round{}, metas: map[int]*RoundSummary{}, saved: map[int]bool{}, changed: make(chan struct{}), next: 1}
	s.idOf = make([]string, len(cfg.Corpus.Docs))
	for i := range cfg.Corpus.Docs {
		s.idOf[i] = cfg.Corpus.Docs[i].ID
	}
	if s.cfg.Debounce == 0 {
		s.cfg.Debounce = DefaultDebounce
	}
	s.ctx, s.stop = context.WithCancel(context.Background())
	if _, err := os.Stat(filepath.Join(cfg.Project, projectFile)); err == nil {
		if err := s.resume(ctx); err != nil {
			s.stop()
			return nil, err
		}
		return s, nil
	}
	if err := s.create(ctx); err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// create starts a new project: the first state, its fit, its round.
func (s *Session) create(ctx context.Context) error {
	cfg := s.cfg
	if err := s.makeFolder(); err != nil {
		return err
	}
	st := &State{Kind: cfg.Kind, K: cfg.K}
	if cfg.LabelsFromCorpus {
		for i := range s.c.Docs {
			if d := &s.c.Docs[i]; len(d.Labels) > 0 {
				st.setLabels(d.ID, d.Labels)
			}
		}
		if len(st.Labels) == 0 {
			return fmt.Errorf("workbench: no document of %s carries a label", s.c.Name)
		}
	}
	if st.Kind == "" {
		st.Kind = DefaultKind
		if len(st.Labels) > 0 {
			st.Kind = DefaultLabeledKind
		}
	}
	if !slices.Contains(model.Kinds(), st.Kind) {
		return fmt.Errorf("workbench: unknown kind %q (want %s)", st.Kind, listNames(model.Kinds(), 10))
	}
	if !takesLabels(st.Kind) && len(st.Labels) > 0 {
		return fmt.Errorf("workbench: kind %s learns no labels; choose a kind that learns from labels (%s)", st.Kind, strings.Join(labeledKinds(), ", "))
	}
	for _, a := range cfg.Anchors {
		b := model.Anchor{Topic: a.Topic, Words: slices.Clone(a.Words), Beta: slices.Clone(a.Beta), Exclude: slices.Clone(a.Exclude)}
		compactBeta(&b)
		st.Anchors = append(st.Anchors, b)
	}
	if st.K == 0 {
		st.K = st.named()
		if len(st.Labels) == 0 {
			st.K = max(DefaultK, st.K)
		}
	}
	st.K = max(st.K, st.named(), 1)
	s.vec = &vectors{c: s.c, ids: s.ids, explicit: cfg.Pipeline}
	s.proj = Project{Format: ProjectFormat, Source: cfg.Source, Pipeline: cfg.Pipeline, PipelineArgs: cfg.PipelineArgs,
		Seed: cfg.Seed, MaxIter: cfg.MaxIter, Corpus: corpusInfo(s.c), Created: time.Now().UTC().Format(time.RFC3339)}
	if cfg.Pipeline == nil {
		s.proj.PipelineArgs = nil
	}
	s.st = st
	s.lineage = map[string][]string{}
	j := &job{version: 0, cancel: func() {}, started: time.Now()}
	s.job = j
	r, err := s.refit(ctx, j)
	if err != nil {
		return err
	}
	s.afterRound(r)
	return nil
}

// DefaultK is the number of topics of a session without labels whose
// Config gives none.
const DefaultK = 20

// DefaultKind is the kind of a session given no kind and no labels, and
// DefaultLabeledKind that of one given labels (or whose first label comes
// to a kind that learns none): NMF, and its topic-supervised form, which
// take seed and exclusion words too.
const (
	DefaultKind        = model.KindNMF
	DefaultLabeledKind = model.KindTSNMF
)

// Close stops the refit in flight and the background work, and waits for
// them; the project stays as saved. The views keep answering.
func (s *Session) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.cancelLocked()
	s.stop()
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// cancelLocked stops the pause, the refit in flight and the accuracy
// estimate.
func (s *Session) cancelLocked() {
	if s.timer != nil {
		s.timer.Stop()
		s.timer = nil
	}
	s.waiting = false
	if s.job != nil {
		s.job.cancel()
		s.job = nil
	}
	s.prog = nil
	if s.estCancel != nil {
		s.estCancel()
		s.estCancel = nil
	}
}

// notifyLocked wakes the waiters.
func (s *Session) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// emit gives the status to Config.Progress; with throttle, at most every
// emitEvery.
func (s *Session) emit(throttle bool) {
	if s.cfg.Progress == nil {
		return
	}
	s.mu.Lock()
	if throttle && time.Since(s.lastEmit) < emitEvery {
		s.mu.Unlock()
		return
	}
	s.lastEmit = time.Now()
	s.mu.Unlock()
	s.emitMu.Lock()
	defer s.emitMu.Unlock()
	s.cfg.Progress(s.Status())
}

// emitEvery bounds how often a fit's steps reach Config.Progress.
const emitEvery = 100 * time.Millisecond

// conflictLocked returns a *ConflictError when base is not the version.
func (s *Session) conflictLocked(base int) error {
	if s.closed {
		return errClosed
	}
	if base == s.version {
		return nil
	}
	e := &ConflictError{Base: base, Current: s.version}
	if base > s.version {
		e.Missed = []string{fmt.Sprintf("version %d does not exist yet", base)}
		return e
	}
	for v := base + 1; v <= s.version; v++ {
		if d, ok := s.log[v]; ok {
			e.Missed = append(e.Missed, fmt.Sprintf("%d: %s", v, d))
		} else {
			e.Missed = append(e.Missed, fmt.Sprintf("%d: a change before this session", v))
		}
	}
	return e
}

// Apply applies the edit e to the state at version base and returns the
// new version. A base other than the current version is a
// *ConflictError; an edit that names an unknown topic, word or document,
// or that the state cannot take, is an error naming it. Unless automatic
// refits are off (Config.Debounce), a refit of the new version starts
// after the pause, cancelling the one in flight.
func (s *Session) Apply(base int, e Edit) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.conflictLocked(base); err != nil {
		return s.version, err
	}
	st := s.st.clone()
	lineage := maps.Clone(s.lineage)
	ed := &editor{st: st, r: s.cur, ids: s.ids, lineage: lineage}
	desc, err := ed.apply(e)
	if err != nil {
		return s.version, fmt.Errorf("workbench: %s: %w", e.Op, err)
	}
	ed.finish()
	s.st, s.lineage = st, lineage
	s.version++
	s.log[s.version] = desc
	s.pending = append(s.pending, desc)
	if s.cfg.Debounce > 0 {
		s.scheduleLocked(s.cfg.Debounce)
	} else if s.job != nil {
		s.job.cancel()
		s.job, s.prog = nil, nil
	}
	s.notifyLocked()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.emit(false)
	}()
	return s.version, nil
}

// Refit starts a refit of the state at version base now (the pause
// skipped), unless one of that version is in flight, and returns the
// version. A base other than the current version is a *ConflictError.
func (s *Session) Refit(base int) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.conflictLocked(base); err != nil {
		return s.version, err
	}
	if s.job != nil && s.job.version == s.version {
		return s.version, nil
	}
	s.startLocked(s.version)
	s.notifyLocked()
	return s.version, nil
}

// scheduleLocked cancels the refit in flight and starts one of the
// current version after delay.
func (s *Session) scheduleLocked(delay time.Duration) {
	s.cancelLocked()
	v := s.version
	s.waiting = true
	s.timer = time.AfterFunc(delay, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.closed || v != s.version || !s.waiting {
			return
		}
		s.startLocked(v)
		s.notifyLocked()
	})
}

// startLocked starts a refit of version v in the background, cancelling
// the one in flight.
func (s *Session) startLocked(v int) {
	s.cancelLocked()
	if s.closed {
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	j := &job{version: v, cancel: cancel, started: time.Now()}
	s.job = j
	s.errMsg = ""
	s.prog = &Progress{Stage: "vectorizing"}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer cancel()
		r, err := s.refit(ctx, j)
		if err != nil {
			s.mu.Lock()
			if s.job == j {
				s.job, s.prog = nil, nil
				s.errMsg, s.errVersion = err.Error(), j.version
				s.notifyLocked()
			}
			s.mu.Unlock()
			s.emit(false)
			return
		}
		s.afterRound(r)
	}()
}

// refit fits the state of job j and makes the result the current round,
// unless a newer change came meanwhile.
func (s *Session) refit(ctx context.Context, j *job) (*round, error) {
	s.mu.Lock()
	st, prev, lineage, changes := s.st.clone(), s.cur, maps.Clone(s.lineage), slices.Clone(s.pending)
	s.mu.Unlock()
	stage := func(name string) {
		s.mu.Lock()
		if s.job == j {
			s.prog = &Progress{Stage: name, Seconds: time.Since(j.started).Seconds()}
			if name == "initialising" && s.cfg.MaxIter > 0 {
				s.prog.Total = s.cfg.MaxIter
			}
		}
		s.mu.Unlock()
		s.emit(false)
	}
	stage("vectorizing")
	d, carry, err := s.vec.get(ctx, st)
	if err != nil {
		return nil, err
	}
	if carry.changed {
		// Another kind's vocabulary (or fewer documents): the stopwords
		// carry over as far as it holds them, and the round says how.
		st.Stopwords = carry.kept
		changes = append(changes, carry.notes...)
	}
	// Until the fit reports its first iteration it is setting up
	// (initialisation, a first factorization, a classifier's inputs).
	stage("initialising")
	report := func(step progress.Step) {
		s.mu.Lock()
		if s.job == j {
			p := &Progress{Stage: "fitting", Iter: step.Iter, Total: step.Total, Seconds: time.Since(j.started).Seconds()}
			if !math.IsNaN(step.Objective) && !math.IsInf(step.Objective, 0) {
				p.Objective = step.Objective
			}
			s.prog = p
		}
		s.mu.Unlock()
		s.emit(step.Iter > 1) // the first step always: the fit is under way
	}
	spec := &fitSpec{d: d, st: st, seed: s.cfg.Seed, maxIter: s.cfg.MaxIter, prev: prev, lineage: lineage}
	fitted, cold, err := refitModel(ctx, spec, s.idOf, report)
	if err != nil {
		return nil, err
	}
	fitted.Info.Corpus = s.c.Name
	stage("reading the topics")
	r := &round{state: st, fitted: fitted, d: d, cold: cold}
	if err := r.derive(ctx); err != nil {
		return nil, err
	}
	r.carryNames(prev, lineage)
	if err := r.check(s.idOf); err != nil {
		return nil, err
	}
	r.meta = RoundSummary{Version: j.version, Created: time.Now().UTC().Format(time.RFC3339), Changes: changes,
		Kind: st.Kind, K: fitted.Model.NumTopics(), Accuracy: Accuracy{State: AccuracyNone}}
	if prev != nil {
		r.meta.Parent = prev.meta.Number
	}
	if r.pred != nil && rowLabels(d, st, s.idOf) != nil {
		r.meta.Accuracy = Accuracy{State: AccuracyEstimating}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.job != j || ctx.Err() != nil {
		return nil, context.Canceled
	}
	r.meta.Number = s.next
	s.next++
	r.meta.Seconds = time.Since(j.started).Seconds()
	r.diffFrom(prev, s.idOf)
	s.cur, s.fitted = r, j.version
	// No change came since the refit started (it would have cancelled
	// it): the state takes what the refit settled, the names of free
	// topics and the stopwords as the vocabulary holds them.
	s.st.Names = maps.Clone(r.state.Names)
	s.st.Stopwords = slices.Clone(r.state.Stopwords)
	s.rounds[r.meta.Number] = r
	s.metas[r.meta.Number] = &r.meta
	s.redo, s.pending = nil, nil
	s.lineage = identityLineage(r)
	s.job, s.prog, s.errMsg = nil, nil, ""
	s.evictLocked()
	s.notifyLocked()
	return r, nil
}

// afterRound saves a new round and the project, then estimates the
// round's accuracy in the background.
func (s *Session) afterRound(r *round) {
	s.emit(false)
	if err := s.saveRound(r); err != nil {
		s.noteError("saving round %d: %v", r.meta.Number, err)
	}
	if err := s.writeProject(); err != nil {
		s.noteError("saving the project: %v", err)
	}
	s.estimate(r)
}

// noteError records a failure of background work in the status.
func (s *Session) noteError(format string, args ...any) {
	s.mu.Lock()
	s.errMsg, s.errVersion = fmt.Sprintf("workbench: "+format, args...), s.version
	s.notifyLocked()
	s.mu.Unlock()
}

// estimate starts the cross-validated accuracy estimate of r when it has
// none.
func (s *Session) estimate(r *round) {
	s.mu.Lock()
	if s.closed || s.cur != r || (r.meta.Accuracy.State != AccuracyEstimating && r.meta.Accuracy.State != AccuracyStopped) {
		s.mu.Unlock()
		return
	}
	if s.estCancel != nil {
		s.estCancel()
	}
	ctx, cancel := context.WithCancel(s.ctx)
	s.estCancel = cancel
	r.meta.Accuracy = Accuracy{State: AccuracyEstimating}
	s.notifyLocked()
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		defer cancel()
		spec := &fitSpec{d: r.d, st: r.state, seed: s.cfg.Seed, maxIter: s.cfg.MaxIter}
		acc := crossValidate(ctx, spec, s.idOf)
		if ctx.Err() != nil {
			acc = Accuracy{State: AccuracyStopped, Note: "not estimated: a newer change came first"}
		}
		s.mu.Lock()
		r.meta.Accuracy = acc
		if s.cur == r {
			s.estCancel = nil
		}
		s.notifyLocked()
		s.mu.Unlock()
		if acc.State != AccuracyStopped {
			if err := s.saveFigures(r); err != nil {
				s.noteError("saving round %d's accuracy: %v", r.meta.Number, err)
			}
		}
		s.emit(false)
	}()
}

// identityLineage maps each topic of r to itself.
func identityLineage(r *round) map[string][]string {
	l := make(map[string][]string, len(r.names))
	for _, n := range r.names {
		l[n] = []string{n}
	}
	return l
}

// evictLocked drops from memory the rounds beyond keepRounds that undo
// and redo are least likely to reach.
func (s *Session) evictLocked() {
	if len(s.rounds) <= keepRounds+1 {
		return
	}
	keep := map[int]bool{s.cur.meta.Number: true}
	for n, k := s.cur.meta.Parent, 0; n > 0 && k < keepRounds/2; k++ {
		keep[n] = true
		m, ok := s.metas[n]
		if !ok {
			break
		}
		n = m.Parent
	}
	for _, n := range s.redo {
		keep[n] = true
	}
	nums := slices.Sorted(maps.Keys(s.rounds))
	for _, n := range nums {
		if len(s.rounds) <= keepRounds+1 {
			break
		}
		if !keep[n] && s.saved[n] {
			delete(s.rounds, n)
		}
	}
}

// Wait waits until the current round shows version (or a later one) and
// returns its summary; it fails when the refit of the current version
// failed, when no refit of it is under way (automatic refits off), or
// when ctx ends.
func (s *Session) Wait(ctx context.Context, version int) (RoundSummary, error) {
	for {
		s.mu.Lock()
		switch {
		case s.fitted >= version:
			m := s.summaryLocked(s.cur.meta.Number)
			s.mu.Unlock()
			return m, nil
		case version > s.version:
			v := s.version
			s.mu.Unlock()
			return RoundSummary{}, fmt.Errorf("workbench: version %d does not exist (the state is at version %d)", version, v)
		case s.errMsg != "" && s.errVersion == s.version:
			err := fmt.Errorf("workbench: the refit of version %d failed: %s", s.errVersion, s.errMsg)
			s.mu.Unlock()
			return RoundSummary{}, err
		case s.job == nil && !s.waiting:
			v := s.version
			s.mu.Unlock()
			return RoundSummary{}, fmt.Errorf("workbench: no refit of version %d is under way (Refit starts one)", v)
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return RoundSummary{}, ctx.Err()
		}
	}
}

// Status says where the session stands.
func (s *Session) Status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := Status{Version: s.version, Fitted: s.fitted, Rounds: len(s.metas), Refitting: s.job != nil || s.waiting,
		Error: s.errMsg, Kind: s.st.Kind, K: s.st.K, Promise: promise(s.st.Kind)}
	if s.errMsg != "" {
		st.ErrorVersion = s.errVersion
	}
	if s.prog != nil {
		p := *s.prog
		if s.job != nil {
			// Kept current between the fit's reports: a fit's first
			// steps (vectorizing, initialising) can take seconds.
			p.Seconds = time.Since(s.job.started).Seconds()
		}
		st.Progress = &p
	}
	if s.cur != nil {
		st.Round = s.cur.meta.Number
		st.Accuracy = s.cur.meta.Accuracy
		st.Estimating = st.Accuracy.State == AccuracyEstimating
		st.CanUndo = s.fitted < s.version || s.cur.meta.Parent > 0
		st.Notes = append(slices.Clone(s.notes), s.cur.fitted.Info.Notes...)
	}
	st.CanRedo = len(s.redo) > 0 && s.fitted == s.version
	return st
}

// promise says what a kind promises about seed words, exclusion words and
// labels.
func promise(kind string) string {
	return seedNote(kind) + "; an excluded word's weight in its topic is exactly zero wherever the kind takes exclusion words; " + labelNote(kind)
}

// labelNote says what a kind promises about labeled documents.
func labelNote(kind string) string {
	switch {
	case !takesLabels(kind):
		return fmt.Sprintf("%s learns no labels: labeling a document switches to %s", kind, DefaultLabeledKind)
	case kind == model.KindTSNMF || kind == model.KindLDA:
		return fmt.Sprintf("a labeled document is predicted with its labels in %s, whose fit lets it use only its labels' topics and the topics no label names; the checks after each refit show any that is not (one that holds no word of the vocabulary cannot be predicted)", kind)
	case takesOption(kind, "hold-labels"):
		return fmt.Sprintf("a labeled document is held to its labels in %s (the fit option hold-labels), so it is predicted with them; the checks after each refit show any that is not (one that holds no word of the vocabulary cannot be predicted)", kind)
	}
	return fmt.Sprintf("a labeled document's predicted label is checked after each refit: %s does not promise it", kind)
}

// State returns a copy of the current state (edits included that no
// round has fitted yet).
func (s *Session) State() State {
	s.mu.Lock()
	defer s.mu.Unlock()
	return *s.st.clone()
}

// summaryLocked returns round n's summary, marked current or redo.
func (s *Session) summaryLocked(n int) RoundSummary {
	m := *s.metas[n]
	m.Changes = slices.Clone(m.Changes)
	m.Current = s.cur != nil && s.cur.meta.Number == n
	m.Redo = slices.Contains(s.redo, n)
	return m
}

// Rounds lists the saved rounds, oldest first.
func (s *Session) Rounds() []RoundSummary {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []RoundSummary
	for _, n := range slices.Sorted(maps.Keys(s.metas)) {
		out = append(out, s.summaryLocked(n))
	}
	return out
}

// Undo moves back: when changes wait for a refit, to the current round's
// state (they are dropped); otherwise to the round before the current
// one, without refitting. base is as for Apply.
func (s *Session) Undo(base int) (Status, error) {
	s.mu.Lock()
	if err := s.conflictLocked(base); err != nil {
		s.mu.Unlock()
		return s.Status(), err
	}
	if s.fitted < s.version {
		n := len(s.pending)
		s.cancelLocked()
		s.st = s.cur.state.clone()
		s.pending, s.lineage = nil, identityLineage(s.cur)
		s.moveLocked(fmt.Sprintf("undo: %d change(s) not yet refitted dropped", n))
		s.mu.Unlock()
		s.afterMove(nil)
		return s.Status(), nil
	}
	parent, from := s.cur.meta.Parent, s.cur.meta.Number
	s.mu.Unlock()
	if parent == 0 {
		return s.Status(), fmt.Errorf("workbench: nothing to undo: round %d is the first", from)
	}
	r, err := s.round(parent)
	if err != nil {
		return s.Status(), err
	}
	s.mu.Lock()
	if err := s.conflictLocked(base); err != nil {
		s.mu.Unlock()
		return s.Status(), err
	}
	s.cancelLocked()
	s.redo = append(s.redo, from)
	s.swapLocked(r, fmt.Sprintf("undo: back to round %d", parent))
	s.mu.Unlock()
	s.afterMove(r)
	return s.Status(), nil
}

// Redo moves forward to the round the last Undo left, without refitting.
func (s *Session) Redo(base int) (Status, error) {
	s.mu.Lock()
	if err := s.conflictLocked(base); err != nil {
		s.mu.Unlock()
		return s.Status(), err
	}
	if len(s.redo) == 0 || s.fitted < s.version {
		s.mu.Unlock()
		return s.Status(), errors.New("workbench: nothing to redo")
	}
	n := s.redo[len(s.redo)-1]
	s.mu.Unlock()
	r, err := s.round(n)
	if err != nil {
		return s.Status(), err
	}
	s.mu.Lock()
	if err := s.conflictLocked(base); err != nil {
		s.mu.Unlock()
		return s.Status(), err
	}
	s.cancelLocked()
	s.redo = s.redo[:len(s.redo)-1]
	s.swapLocked(r, fmt.Sprintf("redo: forward to round %d", n))
	s.mu.Unlock()
	s.afterMove(r)
	return s.Status(), nil
}

// swapLocked makes r the current round, as a change of the state.
func (s *Session) swapLocked(r *round, desc string) {
	s.cur = r
	s.rounds[r.meta.Number] = r
	s.st = r.state.clone()
	s.pending, s.lineage = nil, identityLineage(r)
	s.moveLocked(desc)
	s.evictLocked()
}

// moveLocked records a change that leaves nothing to refit.
func (s *Session) moveLocked(desc string) {
	s.version++
	s.fitted = s.version
	s.log[s.version] = desc
	s.errMsg = ""
	s.notifyLocked()
}

// afterMove saves the project after an undo or redo and estimates the
// accuracy of the round moved to (r) when it has none.
func (s *Session) afterMove(r *round) {
	if err := s.writeProject(); err != nil {
		s.noteError("saving the project: %v", err)
	}
	if r != nil {
		s.estimate(r)
	}
	s.emit(false)
}

// round returns round n, from memory or from its folder.
func (s *Session) round(n int) (*round, error) {
	s.mu.Lock()
	r, ok := s.rounds[n]
	s.mu.Unlock()
	if ok {
		return r, nil
	}
	r, err := s.loadRound(s.ctx, n)
	if err != nil {
		return nil, fmt.Errorf("workbench: round %d: %w", n, err)
	}
	s.mu.Lock()
	if m, ok := s.metas[n]; ok {
		r.meta.Accuracy = m.Accuracy
		s.metas[n] = &r.meta
	}
	s.mu.Unlock()
	return r, nil
}

// current returns the current round.
func (s *Session) current() *round {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}
