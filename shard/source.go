package shard

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/semitopic/semitopic/blocks"
)

// Source is a sharded corpus read one shard at a time: a blocks.Source
// whose blocks are the shards. It holds the manifest only.
type Source struct {
	dir      string
	m        *Manifest
	verified []atomic.Bool // shards whose checksum this Source has checked
}

var _ blocks.Source = (*Source)(nil)

// OpenSource opens the sharded corpus in dir for out-of-core work,
// checking its manifest (each shard is checked when it is read).
func OpenSource(dir string) (*Source, error) {
	m, err := Open(dir)
	if err != nil {
		return nil, err
	}
	return &Source{dir: dir, m: m, verified: make([]atomic.Bool, len(m.Shards))}, nil
}

// Manifest returns the corpus's manifest.
func (s *Source) Manifest() *Manifest { return s.m }

// Dir returns the corpus's folder.
func (s *Source) Dir() string { return s.dir }

// Dims returns the numbers of documents and terms.
func (s *Source) Dims() (int, int) { return s.m.Docs, s.m.Terms }

// NumBlocks returns the number of shards.
func (s *Source) NumBlocks() int { return len(s.m.Shards) }

// Span returns shard i's first document and number of documents.
func (s *Source) Span(i int) (int, int) { return s.m.Shards[i].FirstRow, s.m.Shards[i].Rows }

// Read reads shard i with its documents' labels. The shard's checksum is
// checked the first time this Source reads it (an out-of-core fit reads
// every shard once per pass: hashing them again each time would cost
// more than the reading); its size, header and layout every time.
func (s *Source) Read(i int) (*blocks.Block, error) {
	if i < 0 || i >= len(s.m.Shards) {
		return nil, fmt.Errorf("shard: no shard %d (have %d)", i, len(s.m.Shards))
	}
	verify := !s.verified[i].Load()
	x, err := s.m.readShard(s.dir, i, verify)
	if err != nil {
		return nil, err
	}
	s.verified[i].Store(true)
	b := &blocks.Block{First: s.m.Shards[i].FirstRow, X: x}
	if s.m.Labels != "" {
		if b.Labels, err = s.m.ReadLabels(s.dir, i); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// Vocab reads the vocabulary file (nil when the corpus has none).
func (s *Source) Vocab() ([]string, error) {
	if s.m.Vocab == "" {
		return nil, nil
	}
	vocab, err := readLines(filepath.Join(s.dir, s.m.Vocab))
	if err != nil {
		return nil, err
	}
	if len(vocab) != s.m.Terms {
		return nil, fmt.Errorf("shard: %s has %d terms for %d columns", s.m.Vocab, len(vocab), s.m.Terms)
	}
	return vocab, nil
}

// Pipeline reads the pipeline file (nil when the corpus has none): how its
// documents were vectorized.
func (s *Source) Pipeline() ([]byte, error) {
	if s.m.Pipeline == "" {
		return nil, nil
	}
	if filepath.Base(s.m.Pipeline) != s.m.Pipeline {
		return nil, fmt.Errorf("shard: %s: the pipeline file %q is not in the corpus's folder", s.dir, s.m.Pipeline)
	}
	b, err := os.ReadFile(filepath.Join(s.dir, s.m.Pipeline))
	if err != nil {
		return nil, fmt.Errorf("shard: %w", err)
	}
	return b, nil
}

// ReadLabels reads the labels of shard i's documents from the labels file
// (nil entries for unlabeled documents), starting at the shard's offset.
func (m *Manifest) ReadLabels(dir string, i int) ([][]string, error) {
	if m.Labels == "" {
		return nil, nil
	}
	if i < 0 || i >= len(m.Shards) {
		return nil, fmt.Errorf("shard: no shard %d (have %d)", i, len(m.Shards))
	}
	s := m.Shards[i]
	path := filepath.Join(dir, m.Labels)
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("shard: %w", err)
	}
	defer f.Close()
	if _, err := f.Seek(s.LabelsOffset, io.SeekStart); err != nil {
		return nil, fmt.Errorf("shard: %s: %w", path, err)
	}
	br := bufio.NewReaderSize(f, 1<<16)
	out := make([][]string, s.Rows)
	for r := range out {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("shard: %s: the labels of shard %d end after %d of its %d documents: the file is damaged", path, i, r, s.Rows)
		}
		if line = strings.TrimSuffix(line, "\n"); line != "" {
			out[r] = strings.Split(line, ",")
		}
	}
	return out, nil
}
