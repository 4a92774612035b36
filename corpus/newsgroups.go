package corpus

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
)

// Newsgroups reads the "bydate" version of 20 Newsgroups: PATH is the
// folder or archive (20news-bydate.tar.gz) holding 20news-bydate-train/ and
// 20news-bydate-test/ (at the top or one folder down), each with one folder
// per newsgroup and one raw Usenet message per file.
//
// A document's ID is its path from there ("20news-bydate-train/
// alt.atheism/49960"), its one label the newsgroup, and its split the tree
// it comes from. Documents are in scikit-learn's load_files order: the
// train tree, then the test tree; newsgroups sorted by name; files sorted
// by name as strings. Text is the message decoded as UTF-8, or as Latin-1
// when it is not valid UTF-8, and stripped as the Remove options say. The
// distribution has 11,314 train and 7,532 test documents in 20 groups.
// Files directly inside a tree (outside any newsgroup folder), hidden
// files and files that are not text (see NotTextError) are skipped and
// counted in Notes; a folder inside a newsgroup folder is an error.
type Newsgroups struct {
	// Subset selects "train", "test" or "all" (the default when empty).
	// The trees it needs must exist.
	Subset string
	// Categories, when not empty, keeps only these newsgroups (the order
	// of the documents stays the same). An unknown name is an error.
	Categories []string
	// RemoveHeaders, RemoveFooters and RemoveQuotes strip headers,
	// signature blocks and quoted lines exactly as scikit-learn's
	// fetch_20newsgroups(remove=("headers", "footers", "quotes")) does;
	// see Strip.
	RemoveHeaders, RemoveFooters, RemoveQuotes bool
	// Limits bound the input (see Limits); the defaults when zero.
	Limits Limits
}

// Read implements Reader.
func (n Newsgroups) Read(ctx context.Context, p string) (*Corpus, error) {
	if _, err := n.trees(); err != nil {
		return nil, err
	}
	return withFS(p, limitsOf(n), func(src source) (*Corpus, error) { return n.readFS(ctx, src) })
}

// trees returns the folders Subset selects.
func (n Newsgroups) trees() ([]string, error) {
	switch strings.ToLower(n.Subset) {
	case "", "all":
		return []string{"20news-bydate-train", "20news-bydate-test"}, nil
	case "train":
		return []string{"20news-bydate-train"}, nil
	case "test":
		return []string{"20news-bydate-test"}, nil
	}
	return nil, fmt.Errorf("20ng: unknown subset %q (valid: all, train, test)", n.Subset)
}

// readFS reads the corpus from an opened file system.
func (n Newsgroups) readFS(ctx context.Context, src source) (*Corpus, error) {
	return collect(func(s *sink) (*Corpus, error) { return n.visitFS(ctx, src, s) })
}

// visitFS reads the corpus from an opened file system, giving each
// document to s; the Corpus it returns has no documents.
func (n Newsgroups) visitFS(ctx context.Context, src source, s *sink) (*Corpus, error) {
	trees, err := n.trees()
	if err != nil {
		return nil, err
	}
	fsys := src.fsys
	root, err := locate(src, "20news-bydate-train or 20news-bydate-test folder", func(d string) bool {
		return exists(fsys, join(d, "20news-bydate-train"), true) || exists(fsys, join(d, "20news-bydate-test"), true)
	})
	if err != nil {
		return nil, err
	}
	// List every tree first so that unknown categories are reported
	// before any message is read.
	type group struct {
		tree, name string
		files      []string
	}
	var (
		groups  []group
		skipped []string
		valid   = map[string]bool{}
	)
	for _, t := range trees {
		dir := join(root, t)
		if !exists(fsys, dir, true) {
			return nil, fmt.Errorf("%s: folder %s not found", src.name(root), t)
		}
		ents, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", src.name(dir), err)
		}
		for _, e := range ents {
			if isHidden(e.Name()) || !e.IsDir() {
				skipped = append(skipped, join(t, e.Name()))
				continue
			}
			g := group{tree: t, name: e.Name()}
			gdir := join(dir, e.Name())
			files, err := fs.ReadDir(fsys, gdir)
			if err != nil {
				return nil, fmt.Errorf("listing %s: %w", src.name(gdir), err)
			}
			for _, f := range files {
				switch {
				case isHidden(f.Name()):
					skipped = append(skipped, join(t, join(e.Name(), f.Name())))
				case f.IsDir():
					return nil, fmt.Errorf("%s: unexpected folder inside a newsgroup folder", src.name(join(gdir, f.Name())))
				default:
					g.files = append(g.files, f.Name())
				}
			}
			valid[g.name] = true
			groups = append(groups, g)
		}
	}
	keep := map[string]bool{}
	for _, cat := range n.Categories {
		if !valid[cat] {
			return nil, fmt.Errorf("20ng: unknown category %q (valid: %s)", cat, strings.Join(sortedKeys(valid), ", "))
		}
		keep[cat] = true
	}
	total := 0
	for _, g := range groups {
		if len(keep) == 0 || keep[g.name] {
			total += len(g.files)
		}
	}
	s.known(total)
	c := &Corpus{Name: "20ng: " + src.path}
	var (
		dl     decodeLog
		binary notText
	)
	for _, g := range groups {
		if len(keep) > 0 && !keep[g.name] {
			continue
		}
		if err := canceled(ctx, src.path); err != nil {
			return nil, err
		}
		split := SplitTrain
		if g.tree == "20news-bydate-test" {
			split = SplitTest
		}
		for _, f := range g.files {
			id := g.tree + "/" + g.name + "/" + f
			text, err := src.readFile(join(root, id), &dl)
			if err != nil {
				if err := binary.skip(id, err); err != nil {
					return nil, err
				}
				continue
			}
			if err := s.emit(Document{ID: id, Text: n.Strip(text), Labels: []string{g.name}, Split: split}); err != nil {
				return nil, err
			}
		}
	}
	if len(skipped) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("skipped %s outside newsgroup folders or hidden: %s", plural(len(skipped), "entry", "entries"), nameList(skipped)))
	}
	binary.addNote(c)
	if r := n.removed(); r != "" {
		c.Notes = append(c.Notes, "removed "+r+" as scikit-learn's fetch_20newsgroups does")
	}
	dl.addNote(c)
	return c, nil
}

// removed describes the Remove options ("headers, quotes"), or "".
func (n Newsgroups) removed() string {
	var r []string
	if n.RemoveHeaders {
		r = append(r, "headers")
	}
	if n.RemoveFooters {
		r = append(r, "footers")
	}
	if n.RemoveQuotes {
		r = append(r, "quotes")
	}
	return strings.Join(r, ", ")
}

// Strip applies the removals n selects to one message, in scikit-learn's
// order (headers, footers, quotes), with the same results as
// sklearn.datasets.fetch_20newsgroups(remove=...) in scikit-learn 1.2:
//
//   - headers: everything up to the first blank line ("\n\n") goes; a
//     message without a blank line becomes empty.
//   - footers: the text is trimmed of white space and split into lines;
//     the last line that, trimmed of white space, is empty or made only of
//     '-' marks the signature; the text is cut before it. If there is no
//     such line, or it is the first line, the text is returned unchanged
//     (untrimmed).
//   - quotes: lines containing "writes in", "writes:", "wrote:", "says:" or
//     "said:", or starting with "In article", "Quoted from", "|" or ">",
//     are removed.
//
// White space is Python's: besides Unicode white space it includes the
// separators U+001C–U+001F.
func (n Newsgroups) Strip(text string) string {
	if n.RemoveHeaders {
		text = stripNewsHeader(text)
	}
	if n.RemoveFooters {
		text = stripNewsFooter(text)
	}
	if n.RemoveQuotes {
		text = stripNewsQuoting(text)
	}
	return text
}

func stripNewsHeader(text string) string {
	if i := strings.Index(text, "\n\n"); i >= 0 {
		return text[i+2:]
	}
	return ""
}

func stripNewsFooter(text string) string {
	lines := strings.Split(pyStrip(text), "\n")
	at := 0
	for i := len(lines) - 1; i >= 0; i-- {
		at = i
		if strings.Trim(pyStrip(lines[i]), "-") == "" {
			break
		}
	}
	if at > 0 {
		return strings.Join(lines[:at], "\n")
	}
	return text
}

func stripNewsQuoting(text string) string {
	lines := strings.Split(text, "\n")
	kept := lines[:0:0]
	for _, l := range lines {
		if !isQuoteLine(l) {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// isQuoteLine reports whether a line looks like quoting or its
// introduction, by scikit-learn's rule.
func isQuoteLine(l string) bool {
	for _, s := range []string{"writes in", "writes:", "wrote:", "says:", "said:"} {
		if strings.Contains(l, s) {
			return true
		}
	}
	for _, s := range []string{"In article", "Quoted from", "|", ">"} {
		if strings.HasPrefix(l, s) {
			return true
		}
	}
	return false
}

// pyStrip trims s the way Python's str.strip() does.
func pyStrip(s string) string { return strings.TrimFunc(s, pyIsSpace) }

// pyIsSpace reports whether Python's str.isspace() holds for r.
func pyIsSpace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r == ' ':
		return true
	case r >= 0x1c && r <= 0x1f:
		return true
	case r < 0x85:
		return false
	case r == 0x85, r == 0xa0, r == 0x1680, r >= 0x2000 && r <= 0x200a,
		r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}
