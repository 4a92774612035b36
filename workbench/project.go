package workbench

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/atomicfile"
	"github.com/semitopic/semitopic/model"
	"gonum.org/v1/gonum/mat"
)

// The project folder:
//
//	DIR/project.json            Project
//	DIR/rounds/000001/          one folder per round:
//	    anchors.txt             the anchors (model.ParseAnchors' grammar)
//	    labels.csv              the labels (ReadLabels)
//	    stopwords.txt           the stopwords (ReadList; fit --drop-terms)
//	    removed-docs.txt        the removed documents (ReadList; fit --drop-docs)
//	    state.json              the rest of the state and the round's record
//	    model.semitopic         the model (model.Save)
//	    figures.json            topics, accuracy, diff and checks
//
// A round folder is written as a hidden temporary folder beside its name
// (atomicfile.TempPattern), synced, and renamed into place; project.json
// is replaced atomically after. A kill therefore leaves at most a hidden
// temporary (removed when the project is opened again) and a round
// project.json does not name yet (adopted when it follows the current
// round).

// The files of a round folder.
const (
	fileAnchors   = "anchors.txt"
	fileLabels    = "labels.csv"
	fileStopwords = "stopwords.txt"
	fileRemoved   = "removed-docs.txt"
	fileState     = "state.json"
	fileModel     = "model.semitopic"
	fileFigures   = "figures.json"
	// fileDocTopics holds the model's training weights (model.Fitted's
	// DocTopics), where the kind keeps them: what the views read.
	fileDocTopics = "doc-topics.bin"
	roundsDir     = "rounds"
)

// roundFiles lists the files a complete round folder holds.
var roundFiles = []string{fileAnchors, fileLabels, fileStopwords, fileRemoved, fileState, fileModel, fileFigures}

// roundState is a round's state.json: the state but its anchors, labels,
// stopwords and removed documents (in their own files), and the round's
// record.
type roundState struct {
	Round   int               `json:"round"`
	Parent  int               `json:"parent"`
	Version int               `json:"version"`
	Created string            `json:"created"`
	Kind    string            `json:"kind"`
	K       int               `json:"k"`
	Topics  int               `json:"topics"`
	Seed    uint64            `json:"seed"`
	MaxIter int               `json:"max_iter,omitempty"`
	Names   map[string]string `json:"names,omitempty"`
	Changes []string          `json:"changes,omitempty"`
	Seconds float64           `json:"seconds"`
	// Cold reports that the model is a cold fit (not a warm start).
	Cold bool `json:"cold"`
}

// figures is a round's figures.json.
type figures struct {
	Topics   []TopicView `json:"topics"`
	Accuracy Accuracy    `json:"accuracy"`
	Diff     Diff        `json:"diff"`
	Notes    []string    `json:"notes,omitempty"`
}

// roundName is the folder name of round n.
func roundName(n int) string { return fmt.Sprintf("%06d", n) }

// roundPath is the folder of round n.
func (s *Session) roundPath(n int) string {
	return filepath.Join(s.dir, roundsDir, roundName(n))
}

// makeFolder creates the folder of a new project: it must be new, empty,
// or hold only what an interrupted start left.
func (s *Session) makeFolder() error {
	if err := os.MkdirAll(filepath.Join(s.dir, roundsDir), 0o755); err != nil {
		return fmt.Errorf("workbench: project folder: %w", err)
	}
	es, err := os.ReadDir(s.dir)
	if err != nil {
		return fmt.Errorf("workbench: project folder: %w", err)
	}
	for _, e := range es {
		if e.Name() != roundsDir && !strings.HasPrefix(e.Name(), ".") {
			return fmt.Errorf("workbench: %s holds %s but no workbench project; give a new or empty folder", s.dir, e.Name())
		}
	}
	rs, err := os.ReadDir(filepath.Join(s.dir, roundsDir))
	if err != nil {
		return fmt.Errorf("workbench: project folder: %w", err)
	}
	for _, e := range rs {
		if !strings.HasPrefix(e.Name(), ".") {
			return fmt.Errorf("workbench: %s holds rounds but no %s; give a new or empty folder", s.dir, projectFile)
		}
	}
	return nil
}

// corpusInfo identifies c: its name, size and a digest of its documents'
// IDs and texts (and of its matrix, for an already-vectorized corpus).
func corpusInfo(c *corpus.Corpus) CorpusInfo {
	h := sha256.New()
	var b [8]byte
	str := func(s string) {
		binary.LittleEndian.PutUint64(b[:], uint64(len(s)))
		h.Write(b[:])
		io.WriteString(h, s)
	}
	for i := range c.Docs {
		str(c.Docs[i].ID)
		str(c.Docs[i].Text)
	}
	if m := c.Matrix; m != nil {
		for _, t := range m.Vocab {
			str(t)
		}
		for _, v := range m.X.Indptr {
			binary.LittleEndian.PutUint64(b[:], uint64(v))
			h.Write(b[:])
		}
		for _, v := range m.X.Indices {
			binary.LittleEndian.PutUint64(b[:], uint64(v))
			h.Write(b[:])
		}
	}
	return CorpusInfo{Name: c.Name, Docs: len(c.Docs), Digest: hex.EncodeToString(h.Sum(nil))}
}

// writeAnchors writes anchors in the anchors grammar.
func writeAnchors(w io.Writer, anchors []model.Anchor) error {
	bw := bufio.NewWriter(w)
	if len(anchors) == 0 {
		bw.WriteString("# no anchors\n")
	}
	for _, a := range anchors {
		var words []string
		for i, x := range a.Words {
			if b := betaAt(a, i); b != 0 {
				x += ":" + strconv.FormatFloat(b, 'g', -1, 64)
			}
			words = append(words, x)
		}
		for _, x := range a.Exclude {
			words = append(words, "-"+x)
		}
		fmt.Fprintf(bw, "%s: %s\n", a.Topic, strings.Join(words, ", "))
	}
	return bw.Flush()
}

// readAnchors reads an anchors file that may hold no anchor.
func readAnchors(path string) ([]model.Anchor, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	empty := true
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			empty = false
		}
	}
	if empty {
		return nil, nil
	}
	as, err := model.ParseAnchors(path, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	for k := range as {
		compactBeta(&as[k])
	}
	return as, nil
}

// writeSynced writes path with fill and syncs it.
func writeSynced(path string, fill func(w io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	err = fill(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir syncs a folder's entries to disk (where the system can).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// writeJSON writes v indented.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// figuresOf returns r's figures.
func (s *Session) figuresOf(r *round) figures {
	s.mu.Lock()
	acc := r.meta.Accuracy
	s.mu.Unlock()
	return figures{Topics: topicViews(r, 10), Accuracy: acc, Diff: r.diff, Notes: r.fitted.Info.Notes}
}

// saveRound writes r's folder (see the layout above), unless it is
// saved.
func (s *Session) saveRound(r *round) error {
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	s.mu.Lock()
	done := s.saved[r.meta.Number]
	s.mu.Unlock()
	if done {
		return nil
	}
	dir := filepath.Join(s.dir, roundsDir)
	name := roundName(r.meta.Number)
	tmp, err := os.MkdirTemp(dir, atomicfile.TempPattern(name, atomicfile.KindTmp))
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // after the rename, nothing is left there
	st := r.state
	rs := roundState{Round: r.meta.Number, Parent: r.meta.Parent, Version: r.meta.Version, Created: r.meta.Created, Kind: st.Kind, K: st.K,
		Topics: r.meta.K, Seed: s.cfg.Seed, MaxIter: s.cfg.MaxIter, Names: st.Names, Changes: r.meta.Changes, Seconds: r.meta.Seconds, Cold: r.cold}
	writes := []struct {
		name string
		fill func(w io.Writer) error
	}{
		{fileAnchors, func(w io.Writer) error { return writeAnchors(w, st.Anchors) }},
		{fileLabels, func(w io.Writer) error { return WriteLabels(w, st.Labels) }},
		{fileStopwords, func(w io.Writer) error { return WriteList(w, st.Stopwords) }},
		{fileRemoved, func(w io.Writer) error { return WriteList(w, st.Removed) }},
		{fileModel, func(w io.Writer) error { return model.Save(w, r.fitted) }},
		{fileFigures, func(w io.Writer) error { return writeJSON(w, s.figuresOf(r)) }},
		{fileState, func(w io.Writer) error { return writeJSON(w, rs) }},
	}
	if dt := r.fitted.DocTopics; dt != nil {
		writes = append(writes, struct {
			name string
			fill func(w io.Writer) error
		}{fileDocTopics, func(w io.Writer) error { _, err := dt.MarshalBinaryTo(w); return err }})
	}
	for _, wr := range writes {
		if err := writeSynced(filepath.Join(tmp, wr.name), wr.fill); err != nil {
			return fmt.Errorf("%s: %w", wr.name, err)
		}
	}
	syncDir(tmp)
	if err := os.Rename(tmp, s.roundPath(r.meta.Number)); err != nil {
		return err
	}
	syncDir(dir)
	s.mu.Lock()
	s.saved[r.meta.Number] = true
	r.saved = true
	s.mu.Unlock()
	return nil
}

// saveFigures replaces r's figures.json (its accuracy is known now).
func (s *Session) saveFigures(r *round) error {
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	s.mu.Lock()
	done := s.saved[r.meta.Number]
	s.mu.Unlock()
	if !done {
		return nil // saveRound writes it
	}
	return atomicfile.WriteFile(filepath.Join(s.roundPath(r.meta.Number), fileFigures), func(w io.Writer) error {
		return writeJSON(w, s.figuresOf(r))
	})
}

// writeProject replaces project.json with the session's position: the
// current round, or its closest saved ancestor while it is being saved.
func (s *Session) writeProject() error {
	s.saveMu.Lock()
	defer s.saveMu.Unlock()
	s.mu.Lock()
	p := s.proj
	p.Version = s.version
	p.Kind, p.K = s.st.Kind, s.st.K
	n := s.cur.meta.Number
	for n > 0 && !s.saved[n] {
		m, ok := s.metas[n]
		if !ok {
			n = 0
			break
		}
		n = m.Parent
	}
	p.Current = n
	p.Redo = nil
	for _, r := range s.redo {
		if s.saved[r] {
			p.Redo = append(p.Redo, r)
		}
	}
	s.mu.Unlock()
	if p.Current == 0 {
		return nil // no round saved yet
	}
	return atomicfile.WriteFile(filepath.Join(s.dir, projectFile), func(w io.Writer) error { return writeJSON(w, p) })
}

// readRoundState reads and checks round n's folder without its model.
func (s *Session) readRoundState(n int) (*roundState, *State, *figures, error) {
	dir := s.roundPath(n)
	for _, f := range roundFiles {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || !fi.Mode().IsRegular() {
			return nil, nil, nil, fmt.Errorf("%s: %s missing", dir, f)
		}
	}
	var rs roundState
	if err := readJSON(filepath.Join(dir, fileState), &rs); err != nil {
		return nil, nil, nil, err
	}
	if rs.Round != n {
		return nil, nil, nil, fmt.Errorf("%s: it records round %d", dir, rs.Round)
	}
	var fig figures
	if err := readJSON(filepath.Join(dir, fileFigures), &fig); err != nil {
		return nil, nil, nil, err
	}
	st := &State{Kind: rs.Kind, K: rs.K, Names: rs.Names}
	var err error
	if st.Anchors, err = readAnchors(filepath.Join(dir, fileAnchors)); err != nil {
		return nil, nil, nil, err
	}
	rows, err := readFile(filepath.Join(dir, fileLabels), ReadLabels)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, r := range rows {
		if _, ok := s.ids[r.ID]; !ok {
			return nil, nil, nil, fmt.Errorf("%s:%d: no document of the corpus has the ID %q", filepath.Join(dir, fileLabels), r.Line, r.ID)
		}
		st.setLabels(r.ID, append(slices.Clone(st.Labels[r.ID]), r.Label))
	}
	for _, f := range []struct {
		name string
		dst  *[]string
	}{{fileStopwords, &st.Stopwords}, {fileRemoved, &st.Removed}} {
		ls, err := readFile(filepath.Join(dir, f.name), ReadList)
		if err != nil {
			return nil, nil, nil, err
		}
		for _, l := range ls {
			*f.dst = append(*f.dst, l.Text)
		}
		slices.Sort(*f.dst)
	}
	return &rs, st, &fig, nil
}

// readFile opens path and reads it with read.
func readFile[T any](path string, read func(string, io.Reader) ([]T, error)) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return read(path, f)
}

// readJSON decodes the JSON file path into v.
func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// metaOf returns a round's summary from its state.json and figures.
func metaOf(rs *roundState, fig *figures) RoundSummary {
	return RoundSummary{Number: rs.Round, Parent: rs.Parent, Version: rs.Version, Created: rs.Created, Changes: rs.Changes,
		Kind: rs.Kind, K: rs.Topics, Seconds: rs.Seconds, Accuracy: fig.Accuracy}
}

// readDocTopics reads a round's training weights, nil when the round has
// none (a kind that keeps none).
func readDocTopics(path string) (*mat.Dense, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var m mat.Dense
	if _, err := m.UnmarshalBinaryFrom(bufio.NewReader(f)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &m, nil
}

// loadRound reads round n from its folder and derives its views.
func (s *Session) loadRound(ctx context.Context, n int) (*round, error) {
	rs, st, fig, err := s.readRoundState(n)
	if err != nil {
		return nil, err
	}
	fitted, err := model.LoadFile(filepath.Join(s.roundPath(n), fileModel))
	if err != nil {
		return nil, err
	}
	if fitted.DocTopics, err = readDocTopics(filepath.Join(s.roundPath(n), fileDocTopics)); err != nil {
		return nil, err
	}
	d, carry, err := s.vec.get(ctx, st)
	if err != nil {
		return nil, err
	}
	if carry.changed {
		return nil, fmt.Errorf("%s: the round's stopwords are not the vocabulary's: %s: the corpus or the program changed", s.roundPath(n), strings.Join(carry.notes, "; "))
	}
	if !slices.Equal(fitted.Vocab, d.vocab) {
		return nil, fmt.Errorf("%s: the model's vocabulary (%d terms) is not the corpus's as the round's state reads it (%d terms): the corpus or the program changed", s.roundPath(n), len(fitted.Vocab), len(d.vocab))
	}
	r := &round{meta: metaOf(rs, fig), state: st, fitted: fitted, d: d, saved: true, cold: rs.Cold, checks: fig.Diff.Checks, diff: fig.Diff}
	if err := r.derive(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// roundFolder matches a round folder's name, and hiddenRound a temporary
// of one.
var (
	roundFolder = regexp.MustCompile(`^[0-9]{6}$`)
	hiddenRound = regexp.MustCompile(`^\.([0-9]{6})\.` + atomicfile.KindTmp + `-`)
)

// resume opens the project in the session's folder where it stopped.
func (s *Session) resume(ctx context.Context) error {
	p, err := ReadProject(s.dir)
	if err != nil {
		return fmt.Errorf("workbench: %w", err)
	}
	if info := corpusInfo(s.c); info.Digest != p.Corpus.Digest {
		return fmt.Errorf("workbench: %s was made on %s (%d documents), not on this corpus (%s, %d documents): its documents' IDs or texts differ", s.dir, p.Corpus.Name, p.Corpus.Docs, info.Name, info.Docs)
	}
	s.proj = *p
	s.cfg.Source, s.cfg.Pipeline, s.cfg.PipelineArgs, s.cfg.Seed, s.cfg.MaxIter = p.Source, p.Pipeline, p.PipelineArgs, p.Seed, p.MaxIter
	s.vec = &vectors{c: s.c, ids: s.ids, explicit: p.Pipeline}
	s.notes = append(s.notes, fmt.Sprintf("project %s resumed at round %d", s.dir, p.Current))
	// What a kill during a save left: hidden round temporaries and
	// project.json's temporaries, removed once their writer is gone.
	dir := filepath.Join(s.dir, roundsDir)
	es, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("workbench: %w", err)
	}
	removed := 0
	for _, e := range es {
		if m := hiddenRound.FindStringSubmatch(e.Name()); m != nil {
			gone, _ := atomicfile.RemoveStale(filepath.Join(dir, m[1]), atomicfile.KindTmp)
			removed += len(gone)
		}
	}
	gone, _ := atomicfile.RemoveStale(filepath.Join(s.dir, projectFile), atomicfile.KindTmp)
	removed += len(gone)
	if removed > 0 {
		s.notes = append(s.notes, fmt.Sprintf("removed %d temporaries of a save that was interrupted", removed))
	}
	// The complete rounds; a folder without its files is removed.
	for _, e := range es {
		if !e.IsDir() || !roundFolder.MatchString(e.Name()) {
			continue
		}
		n, _ := strconv.Atoi(e.Name())
		rs, _, fig, err := s.readRoundState(n)
		if err != nil {
			if rerr := os.RemoveAll(filepath.Join(dir, e.Name())); rerr == nil {
				s.notes = append(s.notes, fmt.Sprintf("round %d was incomplete (%v) and is removed", n, err))
			}
			continue
		}
		m := metaOf(rs, fig)
		s.metas[n], s.saved[n] = &m, true
		s.next = max(s.next, n+1)
	}
	cur := p.Current
	if _, ok := s.metas[cur]; !ok {
		if len(s.metas) == 0 {
			return fmt.Errorf("workbench: %s holds no complete round", s.dir)
		}
		last := slices.Max(slices.Collect(maps.Keys(s.metas)))
		s.notes = append(s.notes, fmt.Sprintf("round %d, the current one, is missing; round %d, the last complete one, is resumed", cur, last))
		cur = last
	}
	// A round saved after the current one, from it, whose record in
	// project.json the kill prevented: it fitted a version later than
	// the one project.json last recorded.
	adopt := 0
	for n, m := range s.metas {
		if m.Parent == cur && m.Version > p.Version && n > adopt {
			adopt = n
		}
	}
	if adopt > 0 {
		s.notes = append(s.notes, fmt.Sprintf("round %d was saved but not yet recorded as current; it is resumed", adopt))
		cur, p.Redo = adopt, nil
		p.Version = s.metas[adopt].Version
	}
	// The redo chain, the next round last: each round's parent is the
	// round before it in the chain, the first's the current one.
	parent, keep := cur, 0
	for i := len(p.Redo) - 1; i >= 0; i-- {
		m, ok := s.metas[p.Redo[i]]
		if !ok || m.Parent != parent {
			break
		}
		parent, keep = p.Redo[i], keep+1
	}
	s.redo = slices.Clone(p.Redo[len(p.Redo)-keep:])
	r, err := s.loadRound(ctx, cur)
	if err != nil {
		return fmt.Errorf("workbench: resuming round %d: %w", cur, err)
	}
	s.metas[cur] = &r.meta
	s.rounds[cur] = r
	s.cur, s.st = r, r.state.clone()
	s.version = max(p.Version, r.meta.Version)
	s.fitted = s.version
	s.lineage = identityLineage(r)
	if err := s.writeProject(); err != nil {
		return fmt.Errorf("workbench: %w", err)
	}
	if r.meta.Accuracy.State == AccuracyEstimating {
		r.meta.Accuracy.State = AccuracyStopped
	}
	s.estimate(r)
	return nil
}
