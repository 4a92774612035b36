package model

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/atomicfile"
	"github.com/semitopic/semitopic/text"
	"github.com/semitopic/semitopic/vectorize"
)

// FormatVersion is the version of the model file format this build writes
// and reads up to; docs/model-format.md describes it. Version 2 added the
// readout (Options.Readout), which a version-1 reader would ignore and
// predict differently; version 3 writes enumerations (case mode, token
// pattern, morphology, norm, theme topic kinds) as names instead of the
// integers versions 1 and 2 hold, which older readers cannot decode. This
// build reads all three.
const FormatVersion = 3

// magic starts every model file; the version follows it on the same line.
const magic = "semitopic-model v"

// maxManifest bounds the JSON manifest a reader accepts (its length is
// read from the file before anything is allocated).
const maxManifest = 1 << 30

// ErrCorrupt reports a damaged model file.
var ErrCorrupt = errors.New("model file is corrupted")

// manifest is the JSON part of a model file.
type manifest struct {
	Format   int                 `json:"format"`
	Kind     string              `json:"kind"`
	Info     Info                `json:"info"`
	Vocab    []string            `json:"vocab"`
	Pipeline *vectorize.Pipeline `json:"pipeline,omitempty"`
	Model    json.RawMessage     `json:"model"`
	// Readout describes a trained non-native readout (format 2); its
	// coefficients are the matrices readout_coef (problems × features),
	// readout_intercept (1 × problems) and, when the terms are weighted,
	// readout_idf (1 × terms).
	Readout  *readoutManifest `json:"readout,omitempty"`
	Matrices []matrixEntry    `json:"matrices"`
}

// readoutManifest is the JSON part of a readout.
type readoutManifest struct {
	Readout string `json:"kind"`
}

type matrixEntry struct {
	Name string `json:"name"`
	Rows int    `json:"rows"`
	Cols int    `json:"cols"`
}

// Save writes f to w in the model file format.
func Save(w io.Writer, f *Fitted) error {
	k, err := KindOf(f.Model.Kind())
	if err != nil {
		return fmt.Errorf("model: cannot save %s models", f.Model.Kind())
	}
	params, mats, err := k.save(f.Model)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return fmt.Errorf("model: encoding parameters: %w", err)
	}
	man := manifest{Format: FormatVersion, Kind: f.Model.Kind(), Info: f.Info, Vocab: f.Vocab, Model: raw}
	if wr, ok := f.Model.(withReadout); ok && wr.readout() != nil {
		r := wr.readout()
		man.Readout = &readoutManifest{Readout: r.kind}
		mats["readout_coef"] = r.lin.Coef
		mats["readout_intercept"] = mat.NewDense(1, len(r.lin.Intercept), r.lin.Intercept)
		if r.idf != nil {
			mats["readout_idf"] = mat.NewDense(1, len(r.idf), r.idf)
		}
	}
	var idf []float64
	if f.Vectorizer != nil {
		p := vectorize.Pipeline{Text: f.Vectorizer.Analyzer().Options(), Vectorize: f.Vectorizer.Options()}
		p.Vectorize.Vocabulary = nil // the manifest's vocab holds it
		man.Pipeline = &p
		idf = f.Vectorizer.IDF()
		if idf != nil {
			mats["idf"] = mat.NewDense(1, len(idf), idf)
		}
	}
	names := sortedMatrixNames(mats)
	for _, n := range names {
		if err := checkFinite(n, mats[n]); err != nil {
			return err
		}
	}
	for _, n := range names {
		r, c := mats[n].Dims()
		man.Matrices = append(man.Matrices, matrixEntry{n, r, c})
	}
	js, err := json.Marshal(man)
	if err != nil {
		return fmt.Errorf("model: encoding manifest: %w", err)
	}
	h := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(w, h), 1<<20)
	fmt.Fprintf(bw, "%s%d\n", magic, man.Format)
	var lenBuf [8]byte
	binary.LittleEndian.PutUint64(lenBuf[:], uint64(len(js)))
	bw.Write(lenBuf[:])
	bw.Write(js)
	var buf [8]byte
	for _, n := range names {
		m := mats[n]
		r, c := m.Dims()
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				binary.LittleEndian.PutUint64(buf[:], math.Float64bits(m.At(i, j)))
				bw.Write(buf[:])
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("model: writing: %w", err)
	}
	if _, err := w.Write(h.Sum(nil)); err != nil {
		return fmt.Errorf("model: writing: %w", err)
	}
	return nil
}

func sortedMatrixNames(mats map[string]*mat.Dense) []string {
	names := make([]string, 0, len(mats))
	for n := range mats {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// checkFinite reports a NaN or infinite entry of the matrix called name:
// such a model is broken and is never written.
func checkFinite(name string, m *mat.Dense) error {
	r, c := m.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := m.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("model: matrix %s has the non-finite value %v at row %d, column %d; the model is not saved", name, v, i, j)
			}
		}
	}
	return nil
}

// SaveFile writes f to path atomically: the model goes to a temporary file
// beside path that replaces path only once it is complete, so a failure
// leaves an existing file at path as it was.
func SaveFile(path string, f *Fitted) error {
	return atomicfile.WriteFile(path, func(w io.Writer) error { return Save(w, f) })
}

// LoadFile reads a model file.
func LoadFile(path string) (*Fitted, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	f, err := Load(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// Load reads a model written by Save. A file from a newer format version,
// a truncated file and a file whose checksum does not match are errors
// (the last two wrap ErrCorrupt).
func Load(r io.Reader) (*Fitted, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	line, rest, ok := bytes.Cut(b, []byte("\n"))
	if !ok || !strings.HasPrefix(string(line), magic) {
		return nil, fmt.Errorf("model: not a semitopic model file")
	}
	var version int
	if _, err := fmt.Sscanf(string(line[len(magic):]), "%d", &version); err != nil {
		return nil, fmt.Errorf("model: unreadable format version %q", line)
	}
	if version > FormatVersion {
		return nil, fmt.Errorf("model: file format v%d is newer than this semitopic, which reads up to v%d; upgrade semitopic", version, FormatVersion)
	}
	if version < 1 {
		return nil, fmt.Errorf("model: unknown format version %d", version)
	}
	if len(rest) < 8+sha256.Size {
		return nil, fmt.Errorf("model: truncated file: %w", ErrCorrupt)
	}
	body := b[:len(b)-sha256.Size]
	if sum := sha256.Sum256(body); !bytes.Equal(sum[:], b[len(b)-sha256.Size:]) {
		return nil, fmt.Errorf("model: checksum mismatch (truncated or altered): %w", ErrCorrupt)
	}
	rest = rest[:len(rest)-sha256.Size]
	n := binary.LittleEndian.Uint64(rest[:8])
	if n > maxManifest || n > uint64(len(rest)-8) {
		return nil, fmt.Errorf("model: manifest length %d beyond the file: %w", n, ErrCorrupt)
	}
	var man manifest
	if err := json.Unmarshal(rest[8:8+n], &man); err != nil {
		return nil, fmt.Errorf("model: manifest: %v: %w", err, ErrCorrupt)
	}
	data := rest[8+n:]
	mats := map[string]*mat.Dense{}
	for _, e := range man.Matrices {
		if e.Rows <= 0 || e.Cols <= 0 || e.Rows > len(data)/8 || e.Cols > len(data)/8/e.Rows {
			return nil, fmt.Errorf("model: matrix %s is %d×%d, more than the file holds: %w", e.Name, e.Rows, e.Cols, ErrCorrupt)
		}
		vals := make([]float64, e.Rows*e.Cols)
		for i := range vals {
			vals[i] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:]))
		}
		data = data[8*len(vals):]
		m := mat.NewDense(e.Rows, e.Cols, vals)
		if err := checkFinite(e.Name, m); err != nil {
			return nil, fmt.Errorf("%w: %w", err, ErrCorrupt)
		}
		mats[e.Name] = m
	}
	if len(data) != 0 {
		return nil, fmt.Errorf("model: %d bytes after the matrices: %w", len(data), ErrCorrupt)
	}
	k, err := KindOf(man.Kind)
	if err != nil {
		return nil, fmt.Errorf("model: unknown model kind %q in the file", man.Kind)
	}
	m, err := k.load(man.Model, mats, man.Vocab)
	if err != nil {
		return nil, fmt.Errorf("model: %s model: %w", man.Kind, err)
	}
	if man.Readout != nil {
		if err := loadReadout(m, man.Readout, mats, len(man.Vocab)); err != nil {
			return nil, fmt.Errorf("model: readout: %w: %w", err, ErrCorrupt)
		}
	}
	f := &Fitted{Model: m, Vocab: man.Vocab, Info: man.Info}
	if man.Pipeline != nil {
		a, err := text.NewAnalyzer(man.Pipeline.Text)
		if err != nil {
			return nil, fmt.Errorf("model: text pipeline: %w", err)
		}
		var idf []float64
		if im := mats["idf"]; im != nil {
			idf = im.RawRowView(0)
		}
		v, err := vectorize.NewFitted(a, man.Pipeline.Vectorize, man.Vocab, idf)
		if err != nil {
			return nil, fmt.Errorf("model: vectorizer: %w", err)
		}
		f.Vectorizer = v
	}
	return f, nil
}
