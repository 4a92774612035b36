package corpus

import (
	"context"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// catsEntry is one line of an NLTK cats.txt file.
type catsEntry struct {
	id     string
	labels []string // sorted, without duplicates
	line   int
}

// parseCats parses an NLTK cats.txt file: one line per document, the file
// ID followed by its categories, separated by white space. Blank lines are
// skipped. The categories of each entry are returned sorted and without
// duplicates (as NLTK's categories(fileid) gives them); an entry without
// categories is an unlabeled document. A file ID listed twice, or one that
// is not a valid relative path, is an error naming the line.
func parseCats(name, text string) ([]catsEntry, error) {
	var out []catsEntry
	seen := map[string]int{}
	for i, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		id := f[0]
		if !fs.ValidPath(id) || id == "." {
			return nil, fmt.Errorf("%s:%d: invalid file ID %q", name, i+1, id)
		}
		if prev, dup := seen[id]; dup {
			return nil, fmt.Errorf("%s:%d: %s already listed on line %d", name, i+1, id, prev)
		}
		seen[id] = i + 1
		labels := f[1:]
		sort.Strings(labels)
		labels = dedupSorted(labels)
		if len(labels) == 0 {
			labels = nil
		}
		out = append(out, catsEntry{id: id, labels: labels, line: i + 1})
	}
	return out, nil
}

// catsIndex is a parsed cats.txt with the folder that holds it.
type catsIndex struct {
	root    string
	entries []catsEntry // sorted by ID
	listed  map[string]bool
}

// readCatsIndex finds cats.txt at the top of src or one folder down, and
// parses it.
func readCatsIndex(src source, dl *decodeLog) (*catsIndex, error) {
	root, err := locate(src, "cats.txt", func(d string) bool { return exists(src.fsys, join(d, "cats.txt"), false) })
	if err != nil {
		return nil, err
	}
	text, err := src.readFile(join(root, "cats.txt"), dl)
	if err != nil {
		return nil, err
	}
	entries, err := parseCats(src.name(join(root, "cats.txt")), text)
	if err != nil {
		return nil, err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].id < entries[j].id })
	ix := &catsIndex{root: root, entries: entries, listed: make(map[string]bool, len(entries))}
	for _, e := range entries {
		ix.listed[e.id] = true
	}
	return ix, nil
}

// documents reads the listed files in ID order, makes a document of each
// with doc and gives it to s. A listed file that does not exist is an
// error naming the cats.txt line.
func (ix *catsIndex) documents(ctx context.Context, src source, dl *decodeLog, s *sink, doc func(e catsEntry, text string) Document) error {
	s.known(len(ix.entries))
	for i, e := range ix.entries {
		if i%64 == 0 {
			if err := canceled(ctx, src.path); err != nil {
				return err
			}
		}
		f := join(ix.root, e.id)
		if !exists(src.fsys, f, false) {
			return fmt.Errorf("%s:%d: listed file %s does not exist", src.name(join(ix.root, "cats.txt")), e.line, e.id)
		}
		text, err := src.readFile(f, dl)
		if err != nil {
			return err
		}
		if err := s.emit(doc(e, text)); err != nil {
			return err
		}
	}
	return nil
}

// dedupSorted removes adjacent duplicates from a sorted slice in place.
func dedupSorted(s []string) []string {
	if len(s) < 2 {
		return s
	}
	out := s[:1]
	for _, x := range s[1:] {
		if x != out[len(out)-1] {
			out = append(out, x)
		}
	}
	return out
}

// ReutersNLTK reads the Reuters-21578 ApteMod corpus as NLTK distributes it
// (nltk_data/corpora/reuters): PATH is the folder or an archive of it, with
// cats.txt, training/ and test/ at the top or one folder down.
//
// Every file listed in cats.txt is a document, and every file under
// training/ and test/ must be listed there: a missing or an unlisted file
// is an error naming it. A document's ID is its file ID as in cats.txt
// ("training/123", the SGML NEWID after the folder), its labels are its
// categories (sorted), and its split is SplitTrain under training/,
// SplitTest under test/ and SplitNone elsewhere. Documents are in the order
// of NLTK's fileids(): IDs sorted as strings, so test/14826 comes first and
// training/10 comes before training/2. Text is the file's content verbatim
// (the first line is the title; the files keep the SGML entity "&lt;" as
// is); the distribution has 7,769 train and 3,019 test documents in 90
// categories.
type ReutersNLTK struct {
	// Limits bound the input (see Limits); the defaults when zero.
	Limits Limits
}

// Read implements Reader.
func (r ReutersNLTK) Read(ctx context.Context, p string) (*Corpus, error) {
	return withFS(p, limitsOf(r), func(src source) (*Corpus, error) { return r.readFS(ctx, src) })
}

// readFS reads the corpus from an opened file system.
func (r ReutersNLTK) readFS(ctx context.Context, src source) (*Corpus, error) {
	return collect(func(s *sink) (*Corpus, error) { return r.visitFS(ctx, src, s) })
}

// visitFS reads the corpus from an opened file system, giving each
// document to s; the Corpus it returns has no documents.
func (r ReutersNLTK) visitFS(ctx context.Context, src source, s *sink) (*Corpus, error) {
	var dl decodeLog
	ix, err := readCatsIndex(src, &dl)
	if err != nil {
		return nil, err
	}
	var hidden []string
	for _, sub := range []string{"training", "test"} {
		dir := join(ix.root, sub)
		if !exists(src.fsys, dir, true) {
			continue
		}
		err := fs.WalkDir(src.fsys, dir, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if q != dir && isHidden(d.Name()) {
				hidden = append(hidden, q)
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				return nil
			}
			if id := strings.TrimPrefix(q, ix.root+"/"); !ix.listed[id] {
				return fmt.Errorf("%s: document file %s is not listed in cats.txt", src.name(q), id)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", src.name(dir), err)
		}
	}
	err = ix.documents(ctx, src, &dl, s, func(e catsEntry, text string) Document {
		split := SplitNone
		switch {
		case strings.HasPrefix(e.id, "training/"):
			split = SplitTrain
		case strings.HasPrefix(e.id, "test/"):
			split = SplitTest
		}
		return Document{ID: e.id, Text: text, Labels: e.labels, Split: split}
	})
	if err != nil {
		return nil, err
	}
	c := &Corpus{Name: "reuters-nltk: " + src.path}
	if len(hidden) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("skipped %s: %s", plural(len(hidden), "hidden entry", "hidden entries"), nameList(hidden)))
	}
	dl.addNote(c)
	return c, nil
}

// Brown reads the Brown corpus as NLTK distributes it: PATH is brown.zip or
// a folder with cats.txt and the tagged files (at the top or one folder
// down). Every file listed in cats.txt is a document; a listed file that
// does not exist, or a file named like a Brown text (two lower-case
// letters and two digits, "ca01") that cats.txt does not list, is an error.
// Other files (README, CONTENTS) are not documents and are counted in
// Notes.
//
// The ID is the file name ("ca01"), the labels are the categories of
// cats.txt (the genre, "news"), and documents are sorted by ID. There is no
// split. Text is the words without their part-of-speech tags (the part of
// each "word/tag" token before its last '/'), one sentence per line
// (words separated by a space) and a blank line between paragraphs.
type Brown struct {
	// Limits bound the input (see Limits); the defaults when zero.
	Limits Limits
}

// Read implements Reader.
func (r Brown) Read(ctx context.Context, p string) (*Corpus, error) {
	return withFS(p, limitsOf(r), func(src source) (*Corpus, error) { return r.readFS(ctx, src) })
}

// readFS reads the corpus from an opened file system.
func (r Brown) readFS(ctx context.Context, src source) (*Corpus, error) {
	return collect(func(s *sink) (*Corpus, error) { return r.visitFS(ctx, src, s) })
}

// visitFS reads the corpus from an opened file system, giving each
// document to s; the Corpus it returns has no documents.
func (r Brown) visitFS(ctx context.Context, src source, s *sink) (*Corpus, error) {
	var dl decodeLog
	ix, err := readCatsIndex(src, &dl)
	if err != nil {
		return nil, err
	}
	ents, err := fs.ReadDir(src.fsys, ix.root)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", src.name(ix.root), err)
	}
	var others []string
	for _, e := range ents {
		name := e.Name()
		switch {
		case ix.listed[name] || name == "cats.txt":
		case isBrownName(name):
			return nil, fmt.Errorf("%s: file %s is not listed in cats.txt", src.name(join(ix.root, name)), name)
		default:
			others = append(others, name)
		}
	}
	err = ix.documents(ctx, src, &dl, s, func(e catsEntry, text string) Document {
		return Document{ID: e.id, Text: brownText(text), Labels: e.labels}
	})
	if err != nil {
		return nil, err
	}
	c := &Corpus{Name: "brown: " + src.path}
	if len(others) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("ignored %s that cats.txt does not list: %s", plural(len(others), "entry", "entries"), nameList(others)))
	}
	dl.addNote(c)
	return c, nil
}

// isBrownName reports whether name looks like a Brown text file: two
// lower-case letters and two digits.
func isBrownName(name string) bool {
	return len(name) == 4 && 'a' <= name[0] && name[0] <= 'z' && 'a' <= name[1] && name[1] <= 'z' &&
		'0' <= name[2] && name[2] <= '9' && '0' <= name[3] && name[3] <= '9'
}

// brownText turns a tagged Brown file into plain text: tags are removed
// from each white-space-separated token after its last '/' (a token
// without '/' is kept whole), each non-blank line is a sentence written
// with single spaces, and paragraphs (runs of non-blank lines between blank
// lines) are separated by a blank line.
func brownText(s string) string {
	var sb strings.Builder
	sb.Grow(len(s) / 2)
	inPara, started := false, false
	for _, line := range strings.Split(s, "\n") {
		toks := strings.Fields(line)
		if len(toks) == 0 {
			inPara = false
			continue
		}
		first := true
		for _, t := range toks {
			if i := strings.LastIndexByte(t, '/'); i >= 0 {
				t = t[:i]
			}
			if t == "" {
				continue
			}
			if first {
				switch {
				case !started:
				case inPara:
					sb.WriteByte('\n')
				default:
					sb.WriteString("\n\n")
				}
				first, started, inPara = false, true, true
			} else {
				sb.WriteByte(' ')
			}
			sb.WriteString(t)
		}
	}
	return sb.String()
}
