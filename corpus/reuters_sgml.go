package corpus

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
)

// ReutersSGML reads Reuters-21578, Distribution 1.0, from its original SGML
// files. PATH is the distribution's folder or an archive of it (the files
// may sit one folder down, as in reuters21578.tar.gz), or a single .sgm
// file. Every file whose name ends in ".sgm" in that folder is read, in
// name order (reut2-000.sgm … reut2-021.sgm).
//
// Each <REUTERS> element is one document. Its ID is the NEWID attribute;
// documents keep the order of the files (NEWID 1 … 21578 in the
// distribution). Split comes from LEWISSPLIT: TRAIN and TEST map to
// SplitTrain and SplitTest, NOT-USED to SplitNone.
//
// Text is the title, a newline, and the body. The title is the <TITLE>
// element; the body is the <BODY> element. <DATELINE> and <AUTHOR> are left
// out, as in the NLTK ApteMod files. Documents without a <BODY> are of two
// kinds: a TEXT TYPE="BRIEF" is a headline whose text is only the
// placeholder "Blah blah blah." (and a "******" marker), so its Text is the
// title alone; a TEXT TYPE="UNPROC" has no title and its Text is the
// character data of <TEXT> (pieces outside child elements, trimmed, one per
// line). Character references are decoded (see decodeEntities: &lt; &gt;
// &amp; and &#N;, with references to control characters such as &#2;,
// &#3; and &#127; becoming a space), both parts are trimmed, and, unless
// KeepSignoff is set, a last body line reading only "Reuter" (in any case)
// is removed, as the ApteMod files do. When a document has no title or no
// body, Text is the part it has.
//
// Labels are the <D> values of the chosen field in the order of the file,
// without repeats. A malformed file (an unterminated or mismatched element,
// a bad attribute, a missing NEWID, an unknown TOPICS or LEWISSPLIT value,
// a NEWID used twice) is an error naming the file and line.
//
// By default the reader returns the ModApte split (Apté et al. 1994, the
// split NLTK's ApteMod corpus and most papers use): documents with
// LEWISSPLIT TRAIN or TEST, TOPICS="YES" and at least one topic; their
// topics are restricted to the categories that occur in both the train and
// the test documents so selected (90 in the distribution, computed from the
// data), and documents left with none of them are dropped. On the
// distribution this gives 7,770 train and 3,019 test documents; the train
// set is NLTK's plus NEWID 1199. Notes count the documents left out at each
// step.
type ReutersSGML struct {
	// All returns every document (21,578 in the distribution) with all the
	// labels of LabelField, instead of the ModApte selection.
	All bool
	// LabelField names the label list to use as Labels: "topics" (the
	// default when empty), "places", "people", "orgs" or "exchanges". The
	// ModApte selection is made on the topics whatever the field; only
	// topics are restricted to the categories in both splits.
	LabelField string
	// KeepSignoff keeps the closing "Reuter" line of the body.
	KeepSignoff bool
	// Limits bound the input (see Limits); the defaults when zero.
	Limits Limits
}

// reutersFields lists the label fields in element order.
func reutersFields() []string { return []string{"TOPICS", "PLACES", "PEOPLE", "ORGS", "EXCHANGES"} }

// reutersDoc is one <REUTERS> element, parsed.
type reutersDoc struct {
	file   string
	line   int
	newID  string
	topics string // TOPICS attribute: YES, NO or BYPASS
	lewis  string // LEWISSPLIT attribute: TRAIN, TEST or NOT-USED
	labels [5][]string
	text   string
}

// Read implements Reader.
func (r ReutersSGML) Read(ctx context.Context, p string) (*Corpus, error) {
	if _, err := r.fieldIndex(); err != nil {
		return nil, err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() || archiveKind(p) != "" {
		return withFS(p, limitsOf(r), func(src source) (*Corpus, error) { return r.readFS(ctx, src) })
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var dl decodeLog
	text, err := dl.decode(p, b)
	if err != nil {
		return nil, err
	}
	docs, err := r.parse(ctx, p, text)
	if err != nil {
		return nil, err
	}
	return r.corpus(p, docs, &dl)
}

// readFS reads the .sgm files of an opened file system.
func (r ReutersSGML) readFS(ctx context.Context, src source) (*Corpus, error) {
	dir, err := locate(src, ".sgm files", func(d string) bool { return len(sgmFiles(src.fsys, d)) > 0 })
	if err != nil {
		return nil, err
	}
	var (
		docs []reutersDoc
		dl   decodeLog
	)
	for _, f := range sgmFiles(src.fsys, dir) {
		text, err := src.readFile(f, &dl)
		if err != nil {
			return nil, err
		}
		d, err := r.parse(ctx, src.name(f), text)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d...)
	}
	return r.corpus(src.path, docs, &dl)
}

// corpus checks that NEWIDs are unique and builds the corpus of docs (all
// of them, or the ModApte selection).
func (r ReutersSGML) corpus(p string, docs []reutersDoc, dl *decodeLog) (*Corpus, error) {
	field, err := r.fieldIndex()
	if err != nil {
		return nil, err
	}
	seen := make(map[string]string, len(docs))
	for _, d := range docs {
		where := fmt.Sprintf("%s:%d", d.file, d.line)
		if prev, dup := seen[d.newID]; dup {
			return nil, fmt.Errorf("%s: NEWID %q already used at %s", where, d.newID, prev)
		}
		seen[d.newID] = where
	}
	c := &Corpus{Name: "reuters-sgml: " + p}
	if r.All {
		c.Docs = make([]Document, len(docs))
		for i, d := range docs {
			c.Docs[i] = Document{ID: d.newID, Text: d.text, Labels: d.labels[field], Split: lewisSplit(d.lewis)}
		}
	} else {
		r.modApte(c, docs, field)
	}
	dl.addNote(c)
	return c, nil
}

// fieldIndex returns the index of LabelField in reutersFields.
func (r ReutersSGML) fieldIndex() (int, error) {
	if r.LabelField == "" {
		return 0, nil
	}
	for i, f := range reutersFields() {
		if strings.EqualFold(r.LabelField, f) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("reuters-sgml: unknown label field %q (valid: topics, places, people, orgs, exchanges)", r.LabelField)
}

// lewisSplit maps a LEWISSPLIT value to a Split.
func lewisSplit(v string) Split {
	switch v {
	case "TRAIN":
		return SplitTrain
	case "TEST":
		return SplitTest
	}
	return SplitNone
}

// modApte fills c with the ModApte selection of docs.
func (r ReutersSGML) modApte(c *Corpus, docs []reutersDoc, field int) {
	var notUsed, notYes, noTopic, noneKept int
	inSplit := [3]map[string]bool{nil, {}, {}}
	var cand []reutersDoc
	for _, d := range docs {
		switch {
		case d.lewis == "NOT-USED":
			notUsed++
		case d.topics != "YES":
			notYes++
		case len(d.labels[0]) == 0:
			noTopic++
		default:
			cand = append(cand, d)
			for _, t := range d.labels[0] {
				inSplit[lewisSplit(d.lewis)][t] = true
			}
		}
	}
	both := map[string]bool{}
	for t := range inSplit[SplitTrain] {
		if inSplit[SplitTest][t] {
			both[t] = true
		}
	}
	removed := map[string]bool{}
	var nTrain, nTest int
	for _, d := range cand {
		var kept []string
		for _, t := range d.labels[0] {
			if both[t] {
				kept = append(kept, t)
			} else {
				removed[t] = true
			}
		}
		if len(kept) == 0 {
			noneKept++
			continue
		}
		labels := kept
		if field != 0 {
			labels = d.labels[field]
		}
		s := lewisSplit(d.lewis)
		if s == SplitTrain {
			nTrain++
		} else {
			nTest++
		}
		c.Docs = append(c.Docs, Document{ID: d.newID, Text: d.text, Labels: labels, Split: s})
	}
	c.Notes = append(c.Notes,
		fmt.Sprintf("ModApte selection: %d of %d documents (%d train, %d test); left out %d with LEWISSPLIT=NOT-USED, %d with TOPICS other than YES, %d without topics, %d whose topics all occur in only one split",
			len(c.Docs), len(docs), nTrain, nTest, notUsed, notYes, noTopic, noneKept),
		fmt.Sprintf("ModApte categories: %d topics occur in both splits and are kept; %d occurring in only one split were removed from the labels (%s)",
			len(both), len(removed), nameList(sortedKeys(removed))))
	if field != 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("labels are the %s of the ModApte documents (selected by their topics)", strings.ToLower(reutersFields()[field])))
	}
}

// sgmFiles lists the .sgm files of folder dir, sorted by name.
func sgmFiles(fsys fs.FS, dir string) []string {
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.Type().IsRegular() && strings.HasSuffix(strings.ToLower(e.Name()), ".sgm") && !isHidden(e.Name()) {
			out = append(out, path.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// parse parses the <REUTERS> elements of one SGML file.
func (r ReutersSGML) parse(ctx context.Context, name, src string) ([]reutersDoc, error) {
	p := newSGMLParser(name, src)
	var docs []reutersDoc
	for i := 0; ; {
		if len(docs)%256 == 0 {
			if err := canceled(ctx, name); err != nil {
				return nil, err
			}
		}
		e, j, err := p.next(i, "REUTERS")
		if err != nil {
			return nil, err
		}
		if e == nil {
			return docs, nil
		}
		d, err := r.document(p, e)
		if err != nil {
			return nil, err
		}
		docs = append(docs, d)
		i = j
	}
}

// document extracts a reutersDoc from a <REUTERS> element.
func (r ReutersSGML) document(p *sgmlParser, e *sgmlElem) (reutersDoc, error) {
	d := reutersDoc{file: p.name, line: e.line}
	errorf := func(line int, format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", p.name, line, fmt.Sprintf(format, args...))
	}
	var ok bool
	if d.newID, ok = e.attr("NEWID"); !ok || strings.TrimSpace(d.newID) == "" {
		return d, errorf(e.line, "<REUTERS> without a NEWID attribute")
	}
	d.topics, _ = e.attr("TOPICS")
	switch d.topics {
	case "YES", "NO", "BYPASS":
	default:
		return d, errorf(e.line, "<REUTERS NEWID=%q>: TOPICS attribute %q, want YES, NO or BYPASS", d.newID, d.topics)
	}
	d.lewis, _ = e.attr("LEWISSPLIT")
	switch d.lewis {
	case "TRAIN", "TEST", "NOT-USED":
	default:
		return d, errorf(e.line, "<REUTERS NEWID=%q>: LEWISSPLIT attribute %q, want TRAIN, TEST or NOT-USED", d.newID, d.lewis)
	}
	var seenField [5]bool
	var textElem *sgmlElem
	for _, k := range e.kids {
		if k.elem == nil {
			if strings.TrimSpace(k.text) != "" {
				return d, errorf(k.line, "text %q directly inside <REUTERS>", clip(strings.TrimSpace(k.text)))
			}
			continue
		}
		name := k.elem.name
		if name == "TEXT" {
			if textElem != nil {
				return d, errorf(k.line, "second <TEXT> in document NEWID=%s", d.newID)
			}
			textElem = k.elem
			continue
		}
		for f, fname := range reutersFields() {
			if name != fname {
				continue
			}
			if seenField[f] {
				return d, errorf(k.line, "second <%s> in document NEWID=%s", name, d.newID)
			}
			seenField[f] = true
			labels, err := labelList(k.elem, errorf)
			if err != nil {
				return d, err
			}
			d.labels[f] = labels
		}
	}
	if textElem != nil {
		text, err := r.text(textElem, errorf)
		if err != nil {
			return d, err
		}
		d.text = text
	}
	return d, nil
}

// labelList returns the <D> values of a label element, without duplicates,
// in order.
func labelList(e *sgmlElem, errorf func(int, string, ...any) error) ([]string, error) {
	var out []string
	for _, k := range e.kids {
		if k.elem == nil {
			if strings.TrimSpace(k.text) != "" {
				return nil, errorf(k.line, "text %q outside <D> in <%s>", clip(strings.TrimSpace(k.text)), e.name)
			}
			continue
		}
		if k.elem.name != "D" {
			return nil, errorf(k.line, "<%s> inside <%s>, want <D>", k.elem.name, e.name)
		}
		v := strings.TrimSpace(decodeEntities(k.elem.rawText()))
		if v == "" {
			return nil, errorf(k.line, "empty <D> in <%s>", e.name)
		}
		if !contains(out, v) {
			out = append(out, v)
		}
	}
	return out, nil
}

// text builds a document's text from its <TEXT> element.
func (r ReutersSGML) text(e *sgmlElem, errorf func(int, string, ...any) error) (string, error) {
	var title, body *sgmlElem
	var loose []string
	for _, k := range e.kids {
		if k.elem == nil {
			if t := strings.TrimSpace(decodeEntities(k.text)); t != "" {
				loose = append(loose, t)
			}
			continue
		}
		switch k.elem.name {
		case "TITLE":
			if title != nil {
				return "", errorf(k.line, "second <TITLE> in <TEXT>")
			}
			title = k.elem
		case "BODY":
			if body != nil {
				return "", errorf(k.line, "second <BODY> in <TEXT>")
			}
			body = k.elem
		}
	}
	var t, b string
	if title != nil {
		t = strings.TrimSpace(decodeEntities(title.rawText()))
	}
	switch typ, _ := e.attr("TYPE"); {
	case body != nil:
		b = decodeEntities(body.rawText())
	case typ == "BRIEF" && title != nil:
		// A brief is its headline; the rest is a "******" marker and the
		// placeholder "Blah blah blah.".
	default:
		b = strings.Join(loose, "\n")
	}
	if !r.KeepSignoff {
		b = stripSignoff(b)
	}
	b = strings.TrimSpace(b)
	switch {
	case t == "":
		return b, nil
	case b == "":
		return t, nil
	}
	return t + "\n" + b, nil
}

// stripSignoff removes the last non-blank line of s if it reads "Reuter"
// (in any case, ignoring surrounding white space).
func stripSignoff(s string) string {
	t := strings.TrimRight(s, " \t\r\n")
	i := strings.LastIndexByte(t, '\n')
	if strings.EqualFold(strings.TrimSpace(t[i+1:]), "reuter") {
		return t[:i+1]
	}
	return s
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	for i := 40; i > 0; i-- {
		if s[i]&0xc0 != 0x80 {
			return s[:i] + "…"
		}
	}
	return s[:40]
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
