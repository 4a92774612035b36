package corpus

import (
	"bytes"
	"context"
	"io/fs"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The fuzz targets check that no input makes a reader panic, that errors
// name the input, and that every corpus returned is consistent (see
// consistent). Seed corpora are under testdata/fuzz/<FuzzName>/.

func FuzzReutersSGML(f *testing.F) {
	f.Add([]byte(`<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" NEWID="1"><TOPICS><D>a</D></TOPICS><TEXT><TITLE>T</TITLE><BODY>b &#3;</BODY></TEXT></REUTERS>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		text, _, _ := DecodeText(data)
		for _, r := range []ReutersSGML{{All: true}, {}, {LabelField: "places", KeepSignoff: true}} {
			docs, err := r.parse(context.Background(), "f.sgm", text)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "f.sgm:") {
					t.Fatalf("error does not name the file and line: %v", err)
				}
				return
			}
			var dl decodeLog
			c, err := r.corpus("f.sgm", docs, &dl)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "f.sgm:") {
					t.Fatalf("error does not name the file and line: %v", err)
				}
				return
			}
			if err := consistent(c); err != nil {
				t.Fatal(err)
			}
			if r.All && len(c.Docs) != len(docs) {
				t.Fatalf("All returned %d of %d documents", len(c.Docs), len(docs))
			}
		}
	})
}

// FuzzReutersNLTKCats fuzzes cats.txt, alone and as the index of an NLTK
// ApteMod or Brown layout whose listed files exist.
func FuzzReutersNLTKCats(f *testing.F) {
	f.Add([]byte("test/5 grain\ntraining/1 grain cocoa\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		text, _, _ := DecodeText(data)
		entries, err := parseCats("cats.txt", text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "cats.txt:") {
				t.Fatalf("error does not name the file and line: %v", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, e := range entries {
			if seen[e.id] || e.id == "" {
				t.Fatalf("ID %q empty or repeated", e.id)
			}
			seen[e.id] = true
			if !sort.StringsAreSorted(e.labels) || len(dedupSorted(append([]string(nil), e.labels...))) != len(e.labels) {
				t.Fatalf("labels %q not sorted and unique", e.labels)
			}
		}
		m := newMemFS()
		if err := m.addFile("cats.txt", data, time.Time{}); err != nil {
			t.Fatal(err)
		}
		for i, e := range entries {
			if i == 64 {
				break
			}
			m.addFile(e.id, []byte(e.id), time.Time{}) // may clash with a folder; then it is missing
		}
		src := source{fsys: m, path: "x.tar", lim: Limits{}.resolved()}
		for _, read := range []func() (*Corpus, error){
			func() (*Corpus, error) { return ReutersNLTK{}.readFS(context.Background(), src) },
			func() (*Corpus, error) { return Brown{}.readFS(context.Background(), src) },
		} {
			c, err := read()
			if err != nil {
				if !strings.Contains(err.Error(), "x.tar") {
					t.Fatalf("error does not name the archive: %v", err)
				}
				continue
			}
			if err := consistent(c); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func FuzzNewsgroupsStrip(f *testing.F) {
	f.Add("From: a\nSubject: b\n\nbody\n> quote\n\n-- \nsig\n")
	f.Fuzz(func(t *testing.T, text string) {
		h := newsgroupsFor("h").Strip(text)
		if !strings.HasSuffix(text, h) {
			t.Fatalf("headers: %q is not a suffix of the text", h)
		}
		if ft := newsgroupsFor("f").Strip(text); ft != text && !strings.HasPrefix(pyStrip(text), ft) {
			t.Fatalf("footers: %q is neither the text nor a prefix of it", ft)
		}
		q := newsgroupsFor("q").Strip(text)
		for _, l := range strings.Split(q, "\n") {
			if isQuoteLine(l) {
				t.Fatalf("quotes: line %q kept", l)
			}
		}
		if len(q) > len(text) {
			t.Fatal("quotes: output longer than input")
		}
		for _, combo := range stripCombos {
			out := newsgroupsFor(combo).Strip(text)
			if utf8.ValidString(text) && !utf8.ValidString(out) {
				t.Fatalf("%s: invalid UTF-8 from valid input", combo)
			}
		}
	})
}

func FuzzBrown(f *testing.F) {
	f.Add([]byte("\n\n\tThe/at jury/nn ./.\n\n\n\tIt/pps 1-1/2/cd ./.\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		text, _, _ := DecodeText(data)
		out := brownText(text)
		if strings.ContainsAny(out, "\t\r") || strings.Contains(out, "\n\n\n") ||
			strings.HasPrefix(out, "\n") || strings.HasSuffix(out, "\n") || strings.Contains(out, "  ") {
			t.Fatalf("badly laid out: %q", out)
		}
		words := 0
		for _, tok := range strings.Fields(text) {
			if i := strings.LastIndexByte(tok, '/'); i != 0 {
				words++
			}
		}
		if n := len(strings.Fields(out)); n != words {
			t.Fatalf("%d words out of %d tokens", n, words)
		}
	})
}

// FuzzDir fuzzes folder layouts, read by every reader of one. The input is
// a tar archive or, when it does not parse as one, a text listing files as
// "=== path" lines each followed by the file's contents (see layoutFS).
func FuzzDir(f *testing.F) {
	f.Add([]byte("=== bbc/business/001.txt\nTitle\n\nBody\n=== bbc/README.TXT\nx\n"))
	f.Add([]byte("=== 语料/体育/001.txt\n标题\n\n北京大学\n=== 語料/音楽/002.txt\nサウンドサーバです\n=== dé/Größe/ü.txt\nСпорт Τα παιδιά\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := readTar(bytes.NewReader(data))
		if err != nil {
			m = layoutFS(data)
		}
		for p, n := range m.nodes {
			if !fs.ValidPath(p) || (n.dir && n.children == nil) {
				t.Fatalf("bad node %q", p)
			}
		}
		src := source{fsys: m, path: "x.tar", lim: Limits{}.resolved()}
		ctx := context.Background()
		for _, read := range []func() (*Corpus, error){
			func() (*Corpus, error) { return Dir{}.readFS(ctx, src) },
			func() (*Corpus, error) { return BBC{}.readFS(ctx, src) },
			func() (*Corpus, error) { return Newsgroups{RemoveHeaders: true}.readFS(ctx, src) },
			func() (*Corpus, error) { return ReutersNLTK{}.readFS(ctx, src) },
			func() (*Corpus, error) { return Brown{}.readFS(ctx, src) },
			func() (*Corpus, error) { return ReutersSGML{}.readFS(ctx, src) },
			func() (*Corpus, error) { return Dir{Extensions: []string{".txt"}}.readFS(ctx, src) },
			func() (*Corpus, error) {
				return Newsgroups{Subset: "test", RemoveFooters: true, RemoveQuotes: true}.readFS(ctx, src)
			},
			func() (*Corpus, error) { return ReutersSGML{All: true, LabelField: "places"}.readFS(ctx, src) },
		} {
			c, err := read()
			if err != nil {
				continue
			}
			if err := consistent(c); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// layoutFS builds a file system from "=== path" lines, each followed by
// the contents of that file; invalid paths and clashing entries are left
// out.
func layoutFS(data []byte) *memFS {
	m := newMemFS()
	for _, part := range bytes.Split(data, []byte("=== "))[1:] {
		name, content, _ := bytes.Cut(part, []byte("\n"))
		if p, err := cleanEntryName(string(name)); err == nil && p != "." {
			m.addFile(p, content, time.Time{})
		}
	}
	return m
}

// csvOptions derives CSV options from a fuzzed byte.
func csvOptions(o uint8) CSV {
	r := CSV{NoHeader: o&1 != 0, LazyQuotes: o&2 != 0}
	if o&4 != 0 {
		r.Comma = '\t'
	}
	if o&8 != 0 {
		r.LabelSep = ";"
	}
	switch o >> 4 & 3 {
	case 1:
		r.TextColumn, r.LabelColumn = "1", "2"
	case 2:
		r.TextColumn, r.IDColumn, r.SplitColumn = "text", "id", "split"
	case 3:
		r.TextColumn, r.LabelColumn, r.IDColumn = "2", "1", "3"
	}
	return r
}

func FuzzCSV(f *testing.F) {
	f.Add([]byte("id,text,label,split\nd1,\"a, b\",x,train\n"), uint8(0))
	f.Add([]byte("id,text,label,split\nд1,\"Дети, играют\",спорт,train\n文1,自然语言处理。,语言,test\nج١,يلعب الأطفال,رياضة,train\n"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, opts uint8) {
		c, err := csvOptions(opts).parse(context.Background(), "f.csv", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.csv") && !strings.HasPrefix(err.Error(), "csv:") && !strings.HasPrefix(err.Error(), "tsv:") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if err := consistent(c); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzJSONL(f *testing.F) {
	f.Add([]byte(`{"id": "a", "text": "x", "labels": ["b"], "split": "test"}`))
	f.Add([]byte(`{"id": "文", "text": "JACKはレイテンシの少ないサウンドサーバです", "labels": ["音楽", "Größe"]}` + "\n" + `{"id": "\u0434", "text": "ภาษาไทย 학교에서"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := JSONL{}.parse(context.Background(), "f.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.jsonl") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if err := consistent(c); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzMTX(f *testing.F) {
	f.Add([]byte("%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 2 3\n"), []byte("a\nb\n"), []byte("x\n\n"), true)
	f.Fuzz(func(t *testing.T, mtx, vocab, labels []byte, hasLabels bool) {
		labelsName := ""
		if hasLabels {
			labelsName = "labels.txt"
		}
		c, err := MTX{MaxDocs: 1 << 12}.read(context.Background(), "m.mtx", bytes.NewReader(mtx), "vocab.txt", vocab, labelsName, labels)
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "m.mtx") && !strings.HasPrefix(msg, "vocab.txt") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if err := consistent(c); err != nil {
			t.Fatal(err)
		}
	})
}

func FuzzUCI(f *testing.F) {
	f.Add([]byte("2\n3\n2\n1 1 1\n2 3 4\n"), []byte("a\nb\nc\n"))
	f.Fuzz(func(t *testing.T, docword, vocabData []byte) {
		vocabText, _, _ := DecodeText(vocabData)
		vocab, err := parseVocab("vocab.txt", vocabText)
		if err != nil {
			return
		}
		x, err := readDocword(context.Background(), "d.txt", bytes.NewReader(docword), len(vocab), 1<<12, 1<<10)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "d.txt") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		c := &Corpus{Docs: vectorDocs(x.Rows), Matrix: &Matrix{X: x, Vocab: vocab}}
		if err := consistent(c); err != nil {
			t.Fatal(err)
		}
		lines := 0
		for _, l := range strings.Split(string(docword), "\n") {
			if strings.TrimSpace(l) != "" {
				lines++
			}
		}
		if x.NNZ() != lines-3 {
			t.Fatalf("%d entries stored from %d entry lines", x.NNZ(), lines-3)
		}
	})
}
