package corpus

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// BBC reads the BBC News corpus of Greene & Cunningham (2006): PATH is the
// folder or archive (bbc-fulltext.tar.gz) with one folder per class
// (business, entertainment, politics, sport, tech) of articles NNN.txt.
// When the top holds nothing but one folder of folders (the archive's
// bbc/), that folder is the top.
//
// A document's ID is its class folder and file name without ".txt"
// ("business/001"), its one label the class: the folder's name trimmed of
// surrounding white space (a name that is blank is an error, as for Dir),
// and there is no split.
// Documents are sorted by class, then by file name. Text is the file as is
// (the first line is the title). Files at the top (README.TXT) and hidden
// files are skipped and counted in Notes; a folder inside a class folder is
// an error. The distribution has 2,225 documents: business 510,
// entertainment 386, politics 417, sport 511, tech 401.
type BBC struct {
	// Limits bound the input (see Limits); the defaults when zero.
	Limits Limits
}

// Read implements Reader.
func (r BBC) Read(ctx context.Context, p string) (*Corpus, error) {
	return withFS(p, limitsOf(r), func(src source) (*Corpus, error) { return r.readFS(ctx, src) })
}

// readFS reads the corpus from an opened file system.
func (r BBC) readFS(ctx context.Context, src source) (*Corpus, error) {
	return collect(func(s *sink) (*Corpus, error) { return r.visitFS(ctx, src, s) })
}

// visitFS reads the corpus from an opened file system, giving each
// document to s; the Corpus it returns has no documents.
func (r BBC) visitFS(ctx context.Context, src source, s *sink) (*Corpus, error) {
	fsys := src.fsys
	root, err := singleFolderRoot(fsys)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", src.path, err)
	}
	ents, err := fs.ReadDir(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", src.name(root), err)
	}
	c := &Corpus{Name: "bbc: " + src.path}
	var (
		dl      decodeLog
		skipped []string
		binary  notText
		classes int
	)
	for _, e := range ents {
		if isHidden(e.Name()) || !e.IsDir() {
			skipped = append(skipped, join(root, e.Name()))
			continue
		}
		classes++
		if err := canceled(ctx, src.path); err != nil {
			return nil, err
		}
		folder := e.Name()
		class, err := folderLabel(root, folder)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", src.path, err)
		}
		dir := join(root, folder)
		files, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", src.name(dir), err)
		}
		ids := map[string]string{}
		for _, f := range files {
			name := f.Name()
			switch {
			case isHidden(name):
				skipped = append(skipped, join(dir, name))
				continue
			case f.IsDir():
				return nil, fmt.Errorf("%s: unexpected folder inside a class folder", src.name(join(dir, name)))
			}
			id := folder + "/" + strings.TrimSuffix(name, ".txt")
			if prev, dup := ids[id]; dup {
				return nil, fmt.Errorf("%s: ID %s also used by %s", src.name(join(dir, name)), id, prev)
			}
			ids[id] = name
			text, err := src.readFile(join(dir, name), &dl)
			if err != nil {
				if err := binary.skip(join(dir, name), err); err != nil {
					return nil, err
				}
				continue
			}
			if err := s.emit(Document{ID: id, Text: text, Labels: []string{class}}); err != nil {
				return nil, err
			}
		}
	}
	if classes == 0 {
		return nil, fmt.Errorf("%s: no class folders found", src.name(root))
	}
	if len(skipped) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("skipped %s outside class folders or hidden: %s", plural(len(skipped), "entry", "entries"), nameList(skipped)))
	}
	binary.addNote(c)
	dl.addNote(c)
	return c, nil
}

// Dir reads a folder (or archive) with one file per document. PATH is the
// folder or archive; when its top holds nothing but one folder that itself
// holds folders (as archives usually wrap their contents), that folder is
// the top.
//
// A document's ID is its file path from the top ("pos/review1.txt"); its
// label is the path of the folder holding it ("pos", or "a/b" for
// a/b/file), each folder name trimmed of surrounding white space ("pos "
// gives "pos"); files at the top are unlabeled. A folder whose name is
// blank (only white space) is an error naming it: its name cannot be a
// label, and reading its files as unlabeled would quietly drop the
// labeling the layout seems to give them. There is no split. Documents
// are in fs.WalkDir order: depth first, the entries of each folder sorted
// by name. Text is the file decoded as UTF-8, or as Latin-1 when it is not
// valid UTF-8. Hidden files and folders (names starting with ".", and
// __MACOSX), files filtered out by Extensions, symbolic links to anything
// but a regular file, and files that are not text (an archive, an image,
// anything with NUL bytes; see NotTextError) are skipped and named in
// Notes. A folder without any document is an error.
type Dir struct {
	// Extensions, when not empty, keeps only files whose names end in one
	// of these suffixes (such as ".txt"), compared without regard to case.
	Extensions []string
	// Limits bound the input (see Limits); the defaults when zero.
	Limits Limits
}

// Read implements Reader.
func (r Dir) Read(ctx context.Context, p string) (*Corpus, error) {
	return withFS(p, limitsOf(r), func(src source) (*Corpus, error) { return r.readFS(ctx, src) })
}

// readFS reads the corpus from an opened file system.
func (r Dir) readFS(ctx context.Context, src source) (*Corpus, error) {
	return collect(func(s *sink) (*Corpus, error) { return r.visitFS(ctx, src, s) })
}

// visitFS reads the corpus from an opened file system, giving each
// document to s; the Corpus it returns has no documents.
func (r Dir) visitFS(ctx context.Context, src source, s *sink) (*Corpus, error) {
	fsys := src.fsys
	root, err := singleFolderRoot(fsys)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", src.path, err)
	}
	c := &Corpus{Name: "dir: " + src.path}
	var (
		dl                      decodeLog
		hidden, filtered, links []string
		binary                  notText
	)
	err = fs.WalkDir(fsys, root, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if s.n%256 == 0 {
			if err := canceled(ctx, src.path); err != nil {
				return err
			}
		}
		if q == root {
			return nil
		}
		rel := strings.TrimPrefix(q, root+"/")
		if root == "." {
			rel = q
		}
		if isHidden(d.Name()) {
			hidden = append(hidden, rel)
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			fi, err := fs.Stat(fsys, q)
			if err != nil || !fi.Mode().IsRegular() {
				links = append(links, rel)
				return nil
			}
		}
		if !r.wanted(d.Name()) {
			filtered = append(filtered, rel)
			return nil
		}
		text, err := src.readFile(q, &dl)
		if err != nil {
			return binary.skip(rel, err)
		}
		doc := Document{ID: rel, Text: text}
		if dir := path.Dir(rel); dir != "." {
			label, err := folderLabel(root, dir)
			if err != nil {
				return err
			}
			doc.Labels = []string{label}
		}
		return s.emit(doc)
	})
	if isLimit(err) {
		return nil, err // it names the file
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", src.path, err)
	}
	if len(hidden) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("skipped %s: %s", plural(len(hidden), "hidden entry", "hidden entries"), nameList(hidden)))
	}
	if len(filtered) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("skipped %s without the extensions %s: %s", plural(len(filtered), "file", "files"), strings.Join(r.Extensions, ", "), nameList(filtered)))
	}
	if len(links) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("skipped %s (symbolic links to folders or to nothing): %s", plural(len(links), "entry", "entries"), nameList(links)))
	}
	binary.addNote(c)
	if s.n == 0 {
		if len(binary) > 0 {
			return nil, fmt.Errorf("%s: no documents found: %s", src.path, c.Notes[len(c.Notes)-1])
		}
		return nil, fmt.Errorf("%s: no documents found", src.path)
	}
	dl.addNote(c)
	return c, nil
}

// folderLabel returns the label of the documents in folder dir (a path
// from the corpus top root, "a/b"): each folder name trimmed of
// surrounding white space. A name that is blank after trimming is an error
// naming the folder by its path in the file system or archive.
func folderLabel(root, dir string) (string, error) {
	parts := strings.Split(dir, "/")
	for i, p := range parts {
		t := strings.TrimSpace(p)
		if t == "" {
			return "", fmt.Errorf("folder %q: its name is blank, and a folder's name is the label of its documents; rename it, or move its files to the top to leave them unlabeled", join(root, strings.Join(parts[:i+1], "/")))
		}
		parts[i] = t
	}
	return strings.Join(parts, "/"), nil
}

// wanted reports whether a file name passes the Extensions filter.
func (r Dir) wanted(name string) bool {
	if len(r.Extensions) == 0 {
		return true
	}
	l := strings.ToLower(name)
	for _, e := range r.Extensions {
		if strings.HasSuffix(l, strings.ToLower(e)) {
			return true
		}
	}
	return false
}
