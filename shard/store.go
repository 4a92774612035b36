package shard

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/internal/atomicfile"
)

// stateMagic opens every state file.
var stateMagic = [8]byte{'S', 'T', 'S', 'T', 'A', 'T', 'E', '1'}

// Store is a blocks.Store in a folder: the vector saved as name for block
// i is the file NAME-NNNNN.f64 (a magic, the length, the little-endian
// float64 values and their CRC-32C), written atomically, so that an
// interrupted save leaves the previous vector in place, and checked when
// loaded.
type Store struct {
	dir string
}

var _ blocks.Store = (*Store)(nil)

// validName is what a state name may be: it becomes part of a file name.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// NewStore returns a Store in dir, creating the folder.
func NewStore(dir string) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("shard: state folder: %w", err)
	}
	return &Store{dir: dir}, nil
}

// Dir returns the store's folder.
func (s *Store) Dir() string { return s.dir }

func (s *Store) path(name string, i int) (string, error) {
	if !validName.MatchString(name) || i < 0 {
		return "", fmt.Errorf("shard: bad state name %q or block %d", name, i)
	}
	return filepath.Join(s.dir, fmt.Sprintf("%s-%05d.f64", name, i)), nil
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Save writes v as state name of block i, replacing what was there only
// once it is completely written.
func (s *Store) Save(name string, i int, v []float64) error {
	path, err := s.path(name, i)
	if err != nil {
		return err
	}
	err = atomicfile.WriteFile(path, func(w io.Writer) error {
		h := crc32.New(castagnoli)
		mw := io.MultiWriter(w, h)
		if _, err := w.Write(stateMagic[:]); err != nil {
			return err
		}
		if err := binary.Write(w, binary.LittleEndian, uint64(len(v))); err != nil {
			return err
		}
		var buf [8 << 10]byte
		for len(v) > 0 {
			n := min(len(v), len(buf)/8)
			for k, x := range v[:n] {
				binary.LittleEndian.PutUint64(buf[8*k:], math.Float64bits(x))
			}
			if _, err := mw.Write(buf[:8*n]); err != nil {
				return err
			}
			v = v[n:]
		}
		return binary.Write(w, binary.LittleEndian, h.Sum32())
	})
	if err != nil {
		return fmt.Errorf("shard: saving state: %w", err)
	}
	return nil
}

// Load reads state name of block i into dst, whose length must be the
// saved one. A state never saved is an error wrapping fs.ErrNotExist; a
// damaged file is an error naming it.
func (s *Store) Load(name string, i int, dst []float64) error {
	path, err := s.path(name, i)
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("shard: state %s of block %d: %w", name, i, fs.ErrNotExist)
		}
		return fmt.Errorf("shard: %w", err)
	}
	defer f.Close()
	want := int64(len(stateMagic)) + 8 + 8*int64(len(dst)) + 4
	if fi, err := f.Stat(); err != nil {
		return fmt.Errorf("shard: %w", err)
	} else if fi.Size() != want {
		return fmt.Errorf("shard: %s: %d bytes, want %d for %d values: the file is damaged or from another fit", path, fi.Size(), want, len(dst))
	}
	br := bufio.NewReaderSize(f, 1<<20)
	var head [16]byte
	if _, err := io.ReadFull(br, head[:]); err != nil {
		return fmt.Errorf("shard: %s: %w", path, err)
	}
	if [8]byte(head[:8]) != stateMagic || binary.LittleEndian.Uint64(head[8:]) != uint64(len(dst)) {
		return fmt.Errorf("shard: %s: not a state file of %d values", path, len(dst))
	}
	h := crc32.New(castagnoli)
	var buf [8 << 10]byte
	for k := 0; k < len(dst); {
		n := min(len(dst)-k, len(buf)/8)
		if _, err := io.ReadFull(br, buf[:8*n]); err != nil {
			return fmt.Errorf("shard: %s: %w", path, err)
		}
		h.Write(buf[:8*n])
		for q := 0; q < n; q++ {
			dst[k+q] = math.Float64frombits(binary.LittleEndian.Uint64(buf[8*q:]))
		}
		k += n
	}
	var sum uint32
	if err := binary.Read(br, binary.LittleEndian, &sum); err != nil {
		return fmt.Errorf("shard: %s: %w", path, err)
	}
	if sum != h.Sum32() {
		return fmt.Errorf("shard: %s: checksum mismatch: the file is damaged", path)
	}
	return nil
}

// CheckpointFile is the name of the Store's checkpoint file.
const CheckpointFile = "checkpoint.bin"

var _ blocks.Checkpointer = (*Store)(nil)

// SaveCheckpoint writes a trainer's state as the store's checkpoint,
// atomically, with a CRC-32C.
func (s *Store) SaveCheckpoint(state []byte) error {
	return s.SaveCheckpointParts(state)
}

// SaveCheckpointParts writes the concatenation of parts as the store's
// checkpoint, as SaveCheckpoint does, without building it in memory:
// LoadCheckpoint returns it whole. A caller puts its own header before a
// trainer's state this way.
func (s *Store) SaveCheckpointParts(parts ...[]byte) error {
	path := filepath.Join(s.dir, CheckpointFile)
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	err := atomicfile.WriteFile(path, func(w io.Writer) error {
		if _, err := w.Write(stateMagic[:]); err != nil {
			return err
		}
		if err := binary.Write(w, binary.LittleEndian, uint64(n)); err != nil {
			return err
		}
		h := crc32.New(castagnoli)
		for _, p := range parts {
			h.Write(p)
			if _, err := w.Write(p); err != nil {
				return err
			}
		}
		return binary.Write(w, binary.LittleEndian, h.Sum32())
	})
	if err != nil {
		return fmt.Errorf("shard: saving the checkpoint: %w", err)
	}
	return nil
}

// LoadCheckpoint reads the checkpoint; none is an error wrapping
// fs.ErrNotExist, a damaged one an error naming the file.
func (s *Store) LoadCheckpoint() ([]byte, error) {
	path := filepath.Join(s.dir, CheckpointFile)
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("shard: no checkpoint in %s: %w", s.dir, fs.ErrNotExist)
		}
		return nil, fmt.Errorf("shard: %w", err)
	}
	if len(b) < 20 || [8]byte(b[:8]) != stateMagic || binary.LittleEndian.Uint64(b[8:16]) != uint64(len(b)-20) {
		return nil, fmt.Errorf("shard: %s: not a checkpoint file, or truncated", path)
	}
	state := b[16 : len(b)-4]
	if crc32.Checksum(state, castagnoli) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return nil, fmt.Errorf("shard: %s: checksum mismatch: the file is damaged", path)
	}
	return state, nil
}
