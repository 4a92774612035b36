package shard

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/sparse"
)

// Source is a sharded corpus read one shard at a time: a blocks.Source
// whose blocks are the shards. It holds the manifest, and the arrays of at
// most two shards handed back by Recycle for later reads to reuse.
type Source struct {
	dir     string
	m       *Manifest
	mu      sync.Mutex
	checked []os.FileInfo // each shard's file as it passed every check, nil until then
	spare   []*sparse.CSR // arrays handed back by Recycle, for later reads
}

var (
	_ blocks.Source   = (*Source)(nil)
	_ blocks.Recycler = (*Source)(nil)
)

// maxSpare is how many blocks' arrays a Source keeps for reuse: blocks.Each
// holds two blocks at a time (the one being worked on and the next).
const maxSpare = 2

// OpenSource opens the sharded corpus in dir for out-of-core work,
// checking its manifest (each shard is checked when it is read).
func OpenSource(dir string) (*Source, error) {
	m, err := Open(dir)
	if err != nil {
		return nil, err
	}
	return &Source{dir: dir, m: m, checked: make([]os.FileInfo, len(m.Shards))}, nil
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

// Read reads shard i with its documents' labels. The shard's size and
// header are checked at every read; its checksum and layout the first
// time this Source reads it, and again whenever its file is no longer the
// one that passed (another file, or a different modification time or
// size): an out-of-core fit reads every shard once per pass, and hashing
// and validating them each time would cost as much as the reading.
func (s *Source) Read(i int) (*blocks.Block, error) {
	if i < 0 || i >= len(s.m.Shards) {
		return nil, fmt.Errorf("shard: no shard %d (have %d)", i, len(s.m.Shards))
	}
	s.mu.Lock()
	checked := s.checked[i]
	s.mu.Unlock()
	reuse := s.takeSpare(s.m.Shards[i].NNZ)
	x, fi, err := s.m.readShard(s.dir, i, checked, reuse)
	if err != nil {
		if reuse != nil {
			s.Recycle(&blocks.Block{X: reuse})
		}
		return nil, err
	}
	s.mu.Lock()
	s.checked[i] = fi
	s.mu.Unlock()
	b := &blocks.Block{First: s.m.Shards[i].FirstRow, X: x}
	if s.m.Labels != "" {
		if b.Labels, err = s.m.ReadLabels(s.dir, i); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// Recycle takes back a block that Read returned and that is no longer
// used, so that a later Read can decode into its arrays instead of
// allocating (and the kernel clearing) a shard's worth of new memory at
// every pass. The block must not be used after it is handed back.
func (s *Source) Recycle(b *blocks.Block) {
	if b == nil || b.X == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.spare) < maxSpare {
		s.spare = append(s.spare, b.X)
	}
	b.X = nil
}

// takeSpare returns recycled arrays for a shard of nnz entries: the
// smallest spare whose capacity holds them, or else the largest (whose
// arrays readShard replaces where they are too small), or nil when there
// is none.
func (s *Source) takeSpare(nnz int64) *sparse.CSR {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.spare) == 0 {
		return nil
	}
	best := -1
	for k, x := range s.spare {
		if int64(cap(x.Data)) >= nnz && (best < 0 || cap(x.Data) < cap(s.spare[best].Data)) {
			best = k
		}
	}
	if best < 0 {
		for k, x := range s.spare {
			if best < 0 || cap(x.Data) > cap(s.spare[best].Data) {
				best = k
			}
		}
	}
	x := s.spare[best]
	s.spare = append(s.spare[:best], s.spare[best+1:]...)
	return x
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
