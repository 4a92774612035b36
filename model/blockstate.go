package model

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/shard"
)

// fitMagic opens a checkpoint that describes its fit.
const fitMagic = "STFIT1\x00\x00"

// Setting is one thing that makes an out-of-core fit what it is, as its
// checkpoint records it: Name as the options name it (kind, k, seed, …,
// anchors, corpus) and its value as text.
type Setting struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// SettingDiff is a setting on which a checkpoint and a fit differ.
type SettingDiff struct {
	Name string
	// Saved is the checkpoint's value, Asked this fit's.
	Saved, Asked string
}

// StateMismatchError is the error of an out-of-core fit whose state folder
// holds the checkpoint of another fit: another kind, setting, supervision
// or corpus. The checkpoint is left as it was.
type StateMismatchError struct {
	// Dir is the state folder.
	Dir string
	// Diffs lists what differs, the kind first when it does.
	Diffs []SettingDiff
}

// Error names the state folder and, for each setting that differs, the
// checkpoint's value and this fit's.
func (e *StateMismatchError) Error() string {
	parts := make([]string, len(e.Diffs))
	for i, d := range e.Diffs {
		parts[i] = fmt.Sprintf("%s %s in the checkpoint, %s asked", d.Name, d.Saved, d.Asked)
	}
	return fmt.Sprintf("model: %s holds the checkpoint of another fit: %s", e.Dir, strings.Join(parts, "; "))
}

// fitStore is the store of an out-of-core fit: a shard.Store whose
// checkpoint starts with the fit's settings, which LoadCheckpoint checks
// before the trainer reads what follows, so that a fit never resumes —
// nor overwrites — another fit's checkpoint.
type fitStore struct {
	*shard.Store
	settings []Setting
	head     []byte // fitMagic, the length of the settings' JSON, the JSON
}

var _ blocks.Checkpointer = (*fitStore)(nil)

func newFitStore(st *shard.Store, settings []Setting) (*fitStore, error) {
	js, err := json.Marshal(settings)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	head := append([]byte(fitMagic), binary.LittleEndian.AppendUint32(nil, uint32(len(js)))...)
	return &fitStore{Store: st, settings: settings, head: append(head, js...)}, nil
}

// SaveCheckpoint writes the fit's settings and then the trainer's state.
func (s *fitStore) SaveCheckpoint(state []byte) error {
	return s.Store.SaveCheckpointParts(s.head, state)
}

// LoadCheckpoint returns the trainer's state after checking that the
// checkpoint is this fit's (a *StateMismatchError otherwise). A checkpoint
// of an earlier version, which does not describe its fit, is returned
// whole, for the trainer to check what it can.
func (s *fitStore) LoadCheckpoint() ([]byte, error) {
	b, err := s.Store.LoadCheckpoint()
	if err != nil || len(b) < len(fitMagic) || string(b[:len(fitMagic)]) != fitMagic {
		return b, err
	}
	path := filepath.Join(s.Dir(), shard.CheckpointFile)
	b = b[len(fitMagic):]
	if len(b) < 4 || uint64(binary.LittleEndian.Uint32(b)) > uint64(len(b)-4) {
		return nil, fmt.Errorf("model: %s: the description of its fit is truncated", path)
	}
	n := binary.LittleEndian.Uint32(b)
	var saved []Setting
	if err := json.Unmarshal(b[4:4+n], &saved); err != nil {
		return nil, fmt.Errorf("model: %s: the description of its fit: %w", path, err)
	}
	if diffs := diffSettings(saved, s.settings); len(diffs) > 0 {
		return nil, &StateMismatchError{Dir: s.Dir(), Diffs: diffs}
	}
	return b[4+n:], nil
}

// diffSettings lists the settings both sides have whose values differ,
// in asked's order (a setting of one kind only, such as max iterations,
// goes unsaid when the kinds differ: the kind says it).
func diffSettings(saved, asked []Setting) []SettingDiff {
	var out []SettingDiff
	for _, a := range asked {
		for _, s := range saved {
			if s.Name == a.Name && s.Value != a.Value {
				out = append(out, SettingDiff{Name: a.Name, Saved: s.Value, Asked: a.Value})
			}
		}
	}
	return out
}

// fitSettings describes an out-of-core fit for its checkpoint: the options
// that change what it computes, the anchors it was given (as analyzed)
// and the corpus (its shape and a SHA-256 of its manifest, which holds
// every shard's, its vocabulary and its labels). MaxIter and Tol are left
// out when newLimits says the kind's trainer takes new ones on a resume
// (the NMF family's).
func fitSettings(src *shard.Source, o Options, anchors []Anchor, newLimits bool) ([]Setting, error) {
	text := func(v any) string {
		switch x := v.(type) {
		case string:
			if x == "" {
				return "(default)"
			}
			return x
		case int:
			if x == 0 {
				return "(default)"
			}
			return strconv.Itoa(x)
		case float64:
			if x == 0 {
				return "(default)"
			}
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
		return fmt.Sprint(v)
	}
	ss := []Setting{
		{"kind", o.Kind}, {"k", text(o.K)}, {"seed", strconv.FormatUint(o.Seed, 10)},
		{"loss", text(o.Loss)}, {"init", text(o.Init)}, {"weighting", text(o.Weighting)}, {"method", text(o.Method)},
		{"beta", text(o.Beta)}, {"seed mode", text(o.SeedMode)}, {"restarts", text(o.Restarts)},
		{"labels from the corpus", strconv.FormatBool(o.LabelsFromCorpus)},
	}
	if !newLimits {
		ss = append(ss, Setting{"max iterations", text(o.MaxIter)}, Setting{"tolerance", text(o.Tol)})
	}
	var as []string
	for _, a := range anchors {
		var ws []string
		for i, w := range a.Words {
			if i < len(a.Beta) && a.Beta[i] > 0 {
				w += ":" + strconv.FormatFloat(a.Beta[i], 'g', -1, 64)
			}
			ws = append(ws, w)
		}
		for _, w := range a.Exclude {
			ws = append(ws, "-"+w)
		}
		as = append(as, a.Topic+": "+strings.Join(ws, ", "))
	}
	anchorText := "(none)"
	if len(as) > 0 {
		anchorText = strings.Join(as, "; ")
	}
	ss = append(ss, Setting{"anchors", anchorText})
	corpus, err := corpusPrint(src)
	if err != nil {
		return nil, err
	}
	return append(ss, Setting{"corpus", corpus}), nil
}

// corpusPrint identifies a sharded corpus by its shape and the first
// digits of a SHA-256 of its manifest and its vocabulary and labels files.
func corpusPrint(src *shard.Source) (string, error) {
	m := src.Manifest()
	h := sha256.New()
	js, err := json.Marshal(m)
	if err != nil {
		return "", fmt.Errorf("model: %w", err)
	}
	h.Write(js)
	for _, name := range []string{m.Vocab, m.Labels} {
		if name == "" {
			continue
		}
		path := filepath.Join(src.Dir(), name)
		f, err := os.Open(path)
		if err != nil {
			return "", fmt.Errorf("model: %w", err)
		}
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("model: reading %s: %w", path, err)
		}
	}
	return fmt.Sprintf("%d documents × %d terms, %d non-zeros (SHA-256 %s…)", m.Docs, m.Terms, m.NNZ, hex.EncodeToString(h.Sum(nil))[:12]), nil
}
