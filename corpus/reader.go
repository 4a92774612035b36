package corpus

import (
	"context"
	"fmt"
	"reflect"
	"strings"
)

// Reader loads a corpus from a path (a folder, an archive, or a file,
// depending on the format).
type Reader interface {
	Read(ctx context.Context, path string) (*Corpus, error)
}

// Every format type is a Reader, by value and by pointer.
var (
	_ Reader = ReutersSGML{}
	_ Reader = ReutersNLTK{}
	_ Reader = Newsgroups{}
	_ Reader = Brown{}
	_ Reader = BBC{}
	_ Reader = Dir{}
	_ Reader = CSV{}
	_ Reader = JSONL{}
	_ Reader = MTX{}
	_ Reader = UCI{}
	_ Reader = Shards{}
)

// FormatInfo describes one input format for help texts.
type FormatInfo struct {
	// Name is the format's name, as given to NewReader.
	Name string
	// Description says what the format is and what PATH it takes.
	Description string
	// Example is a short sample of the input or of its layout.
	Example string
}

// format pairs a format's description with a constructor for a reader with
// default options.
type format struct {
	info FormatInfo
	make func() Reader
}

// formatTable lists the formats in the order Formats returns them.
func formatTable() []format {
	return []format{
		{FormatInfo{"reuters-sgml",
			"Reuters-21578 Distribution 1.0: folder or archive of reut2-*.sgm files (or one .sgm file); ModApte split by default",
			"<REUTERS TOPICS=\"YES\" LEWISSPLIT=\"TRAIN\" ... NEWID=\"1\">\n<TOPICS><D>cocoa</D></TOPICS> ... <TEXT><TITLE>...</TITLE><BODY>...</BODY></TEXT></REUTERS>"},
			func() Reader { return &ReutersSGML{} }},
		{FormatInfo{"reuters-nltk",
			"Reuters-21578 ApteMod as NLTK ships it: folder or archive with cats.txt, training/ and test/",
			"cats.txt: \"test/14826 trade\"; training/1, test/14826: title line, then the body"},
			func() Reader { return &ReutersNLTK{} }},
		{FormatInfo{"20ng",
			"20 Newsgroups bydate: folder or archive with 20news-bydate-train/ and 20news-bydate-test/, one folder per newsgroup",
			"20news-bydate-train/alt.atheism/49960 (a raw Usenet message)"},
			func() Reader { return &Newsgroups{} }},
		{FormatInfo{"brown",
			"Brown corpus as NLTK ships it: brown.zip or a folder with cats.txt and POS-tagged files ca01 ... cr09",
			"cats.txt: \"ca01 news\"; ca01: \"\\tThe/at Fulton/np-tl County/nn-tl ...\""},
			func() Reader { return &Brown{} }},
		{FormatInfo{"bbc",
			"BBC News (Greene & Cunningham): folder or archive with one folder per class of NNN.txt articles",
			"bbc/business/001.txt, bbc/sport/199.txt, bbc/README.TXT"},
			func() Reader { return &BBC{} }},
		{FormatInfo{"dir",
			"one file per document in a folder or archive; the folder holding a file is its label, files at the top are unlabeled",
			"pos/review1.txt, neg/review2.txt, unlabeled.txt"},
			func() Reader { return &Dir{} }},
		{FormatInfo{"csv",
			"comma-separated file with a header; columns text, label or labels, id and split by default",
			"id,text,label\nd1,\"Stocks rose today\",finance"},
			func() Reader { return &CSV{} }},
		{FormatInfo{"tsv",
			"tab-separated file with a header; columns as for csv",
			"id\ttext\tlabel\nd1\tStocks rose today\tfinance"},
			func() Reader { return &CSV{Comma: '\t'} }},
		{FormatInfo{"jsonl",
			"JSON Lines: one object per line with text and optional id, labels (array) or label (string), split",
			`{"id": "d1", "text": "Stocks rose today", "labels": ["finance"], "split": "train"}`},
			func() Reader { return &JSONL{} }},
		{FormatInfo{"mtx",
			"already vectorized: MatrixMarket documents × terms file (values ≥ 0; repeated entries are summed, with a note), with vocab.txt (and optional labels.txt) beside it",
			"%%MatrixMarket matrix coordinate integer general\n3 4 5\n1 1 2\n..."},
			func() Reader { return &MTX{} }},
		{FormatInfo{"uci",
			"already vectorized: UCI bag-of-words docword.NAME.txt(.gz) with vocab.NAME.txt beside it",
			"docword.kos.txt: D, W, NNZ lines, then \"docID wordID count\" lines; vocab.kos.txt: one word per line"},
			func() Reader { return &UCI{} }},
		{FormatInfo{"shards",
			"already vectorized: a sharded corpus folder (semitopic synth --format shards; package shard): manifest.json, shard-NNNNN.bin, vocab.txt, labels.txt",
			"corpus/manifest.json, corpus/shard-00000.bin, corpus/vocab.txt, corpus/labels.txt"},
			func() Reader { return &Shards{} }},
	}
}

// Formats returns the supported formats, in a stable order: the benchmark
// corpora first, then the generic text formats, then the vectorized ones.
func Formats() []FormatInfo {
	formats := formatTable()
	out := make([]FormatInfo, len(formats))
	for i, f := range formats {
		out[i] = f.info
	}
	return out
}

// NewReader returns a reader for the named format with default options. The
// result is a pointer to the format's type (*ReutersSGML for
// "reuters-sgml", *CSV for "csv" and "tsv", and so on), so that callers may
// set options before reading. An unknown name yields an error listing the
// valid ones.
func NewReader(format string) (Reader, error) {
	formats := formatTable()
	names := make([]string, len(formats))
	for i, f := range formats {
		if f.info.Name == format {
			return f.make(), nil
		}
		names[i] = f.info.Name
	}
	return nil, fmt.Errorf("unknown corpus format %q (valid: %s)", format, strings.Join(names, ", "))
}

// FormatName returns the name of rd's format, as NewReader takes it
// ("tsv" for a CSV reader separated by tabs), or "" for a reader of
// another package.
func FormatName(rd Reader) string {
	t := reflect.TypeOf(rd)
	if t == nil {
		return ""
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch r := rd.(type) {
	case CSV:
		return r.format()
	case *CSV:
		if r != nil {
			return r.format()
		}
	}
	for _, f := range formatTable() {
		if reflect.TypeOf(f.make()).Elem() == t {
			return f.info.Name
		}
	}
	return ""
}

// canceled returns ctx's error, if any, wrapped with what was being read.
func canceled(ctx context.Context, what string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("reading %s: %w", what, err)
	}
	return nil
}
