package wndata

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Magic opens every data file; Version follows it. MaxLemmaLen bounds the
// byte length of a stored lemma (WordNet 3.0's longest has 71 bytes).
const (
	Magic       = "STWN"
	Version     = 1
	MaxLemmaLen = 255
)

// Part-of-speech mask bits, one per NLTK tag.
const (
	MaskNoun   = 1 << iota // "n"
	MaskVerb               // "v"
	MaskAdj                // "a"
	MaskAdv                // "r"
	MaskAdjSat             // "s"
)

// MaskOf returns the mask bit of an NLTK part-of-speech tag, or 0 for an
// unknown tag.
func MaskOf(tag string) uint8 {
	switch tag {
	case "n":
		return MaskNoun
	case "v":
		return MaskVerb
	case "a":
		return MaskAdj
	case "r":
		return MaskAdv
	case "s":
		return MaskAdjSat
	}
	return 0
}

// Parts returns the WordNet file stems in the order the data file stores
// the exception tables.
func Parts() [4]string { return [4]string{"noun", "verb", "adj", "adv"} }

// DB is what the lemmatizer needs from WordNet.
type DB struct {
	// Lemmas maps each lemma to its part-of-speech mask.
	Lemmas map[string]uint8
	// Exceptions holds, for noun, verb, adj and adv (the order of Parts),
	// the exception list: inflected form → base forms.
	Exceptions [4]map[string][]string
}

// ReadDir reads index.{noun,verb,adj,adv} and {noun,verb,adj,adv}.exc from
// the WordNet dict folder dir.
func ReadDir(dir string) (*DB, error) {
	db := &DB{Lemmas: make(map[string]uint8, 160000)}
	for _, part := range Parts() {
		if err := readIndex(filepath.Join(dir, "index."+part), db.Lemmas); err != nil {
			return nil, err
		}
	}
	for i, part := range Parts() {
		m, err := readExceptions(filepath.Join(dir, part+".exc"))
		if err != nil {
			return nil, err
		}
		db.Exceptions[i] = m
	}
	return db, nil
}

// eachLine calls fn with every line of the file at path (without its
// newline) and its 1-based number, and wraps fn's error with the place.
func eachLine(path string, fn func(line string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("wndata: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSuffix(sc.Text(), "\r")
		if !utf8.ValidString(line) {
			return fmt.Errorf("wndata: %s:%d: not valid UTF-8", path, n)
		}
		if err := fn(line); err != nil {
			return fmt.Errorf("wndata: %s:%d: %w", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("wndata: reading %s: %w", path, err)
	}
	return nil
}

// readIndex adds the lemmas of one index file to lemmas. Lines starting
// with a space are the licence header and are skipped, as NLTK does. The
// rest of each line is checked for the shape NLTK insists on (synset count,
// pointer symbols, sense count equal to the synset count, offsets).
func readIndex(path string, lemmas map[string]uint8) error {
	return eachLine(path, func(line string) error {
		if strings.HasPrefix(line, " ") {
			return nil
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			return fmt.Errorf("index line has %d fields, want at least 6", len(f))
		}
		lemma, tag := f[0], f[1]
		mask := MaskOf(tag)
		if mask == 0 {
			return fmt.Errorf("lemma %q: unknown part of speech %q", lemma, tag)
		}
		num := func(i int, what string) (int, error) {
			if i >= len(f) {
				return 0, fmt.Errorf("lemma %q: missing %s", lemma, what)
			}
			v, err := strconv.Atoi(f[i])
			if err != nil || v < 0 {
				return 0, fmt.Errorf("lemma %q: bad %s %q", lemma, what, f[i])
			}
			return v, nil
		}
		synsets, err := num(2, "synset count")
		if err != nil {
			return err
		}
		if synsets == 0 {
			return fmt.Errorf("lemma %q: synset count is 0", lemma)
		}
		pointers, err := num(3, "pointer count")
		if err != nil {
			return err
		}
		i := 4 + pointers
		senses, err := num(i, "sense count")
		if err != nil {
			return err
		}
		if senses != synsets {
			return fmt.Errorf("lemma %q: sense count %d differs from synset count %d", lemma, senses, synsets)
		}
		if _, err := num(i+1, "tagged sense count"); err != nil {
			return err
		}
		for k := 0; k < synsets; k++ {
			if _, err := num(i+2+k, "synset offset"); err != nil {
				return err
			}
		}
		lemmas[lemma] |= mask
		if mask == MaskAdj {
			lemmas[lemma] |= MaskAdjSat
		}
		return nil
	})
}

// readExceptions reads one exception list; a later line for the same form
// replaces an earlier one.
func readExceptions(path string) (map[string][]string, error) {
	m := make(map[string][]string)
	err := eachLine(path, func(line string) error {
		f := strings.Fields(line)
		if len(f) == 0 {
			return fmt.Errorf("empty exception line")
		}
		m[f[0]] = f[1:]
		return nil
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// sortedKeys returns the keys of m in increasing byte order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Encode writes db in the data-file format (see the package comment).
func (db *DB) Encode(w io.Writer) error {
	var raw bytes.Buffer
	var tmp [binary.MaxVarintLen64]byte
	uv := func(v int) { raw.Write(tmp[:binary.PutUvarint(tmp[:], uint64(v))]) }
	raw.WriteString(Magic)
	raw.WriteByte(Version)
	keys := sortedKeys(db.Lemmas)
	uv(len(keys))
	shared := make([]int, len(keys))
	prev := ""
	for i, k := range keys {
		if !validWord(k) || len(k) > MaxLemmaLen {
			return fmt.Errorf("wndata: lemma %q cannot be stored", k)
		}
		for shared[i] < len(prev) && shared[i] < len(k) && prev[shared[i]] == k[shared[i]] {
			shared[i]++
		}
		raw.WriteByte(byte(shared[i]))
		prev = k
	}
	for i, k := range keys {
		raw.WriteString(k[shared[i]:])
		raw.WriteByte('\n')
	}
	for _, k := range keys {
		raw.WriteByte(db.Lemmas[k])
	}
	for i, m := range db.Exceptions {
		keys := sortedKeys(m)
		uv(len(keys))
		for _, k := range keys {
			for _, s := range append([]string{k}, m[k]...) {
				if !validWord(s) {
					return fmt.Errorf("wndata: %s exceptions: word %q cannot be stored", Parts()[i], s)
				}
				raw.WriteString(s)
				raw.WriteByte(' ')
			}
			raw.WriteByte('\n')
		}
	}
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return fmt.Errorf("wndata: %w", err)
	}
	if _, err := zw.Write(raw.Bytes()); err != nil {
		return fmt.Errorf("wndata: compressing: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("wndata: compressing: %w", err)
	}
	return nil
}

// validWord reports whether s is non-empty and free of the separators the
// format uses (it never is otherwise: the files are split on white space).
func validWord(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \n")
}
