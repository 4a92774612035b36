package corpus

import (
	"context"
	"strings"
	"testing"
)

func TestCSV(t *testing.T) {
	c := read(t, CSV{}, "testdata/table/docs.csv")
	equal(t, "IDs", ids(c), []string{"d1", "d2", "d3", "d4"})
	docs := byID(c)
	equal(t, "quoted text", docs["d2"].Text, "A \"quoted\" word\nand a second line")
	equal(t, "comma text", docs["d1"].Text, "Stocks rose, then fell")
	equal(t, "labels", docs["d1"].Labels, []string{"finance"})
	equal(t, "split", docs["d2"].Split, SplitTest)
	equal(t, "empty text kept", docs["d3"].Text, "")
	if docs["d3"].Labels != nil || docs["d4"].Split != SplitNone {
		t.Errorf("d3/d4 = %+v %+v", docs["d3"], docs["d4"])
	}
	equal(t, "name", c.Name, "csv: testdata/table/docs.csv")

	tsv := CSV{Comma: '\t', TextColumn: "body", LabelColumn: "tags", IDColumn: "doc", SplitColumn: "4", LabelSep: ";"}
	c = read(t, tsv, "testdata/table/docs.tsv")
	docs = byID(c)
	equal(t, "IDs", ids(c), []string{"x1", "x2", "x3"})
	equal(t, "multi labels", docs["x1"].Labels, []string{"finance", "markets"})
	equal(t, "repeats and blanks dropped", docs["x2"].Labels, []string{"sport"})
	equal(t, "split by number", docs["x1"].Split, SplitTrain)
	equal(t, "tsv name", c.Name, "tsv: testdata/table/docs.tsv")

	// Columns by number; without a header the first row is a document.
	c = read(t, CSV{NoHeader: true, TextColumn: "2", LabelColumn: "1"}, "testdata/table/noheader.csv")
	equal(t, "IDs", ids(c), []string{"row-1", "row-2"})
	equal(t, "text", byID(c)["row-2"].Text, "Goals scored")
	equal(t, "label", byID(c)["row-2"].Labels, []string{"sport"})
	c = read(t, CSV{NoHeader: true}, "testdata/table/noheader.csv")
	equal(t, "default text column without a header", byID(c)["row-1"].Text, "finance")

	c = read(t, CSV{}, "testdata/table/latin1.csv")
	equal(t, "Latin-1 text", c.Docs[0].Text, "Café crème")
	equal(t, "notes", c.Notes, []string{"1 file decoded as Latin-1 (not valid UTF-8): testdata/table/latin1.csv"})

	// A "labels" header column is the default label column.
	p := writeTemp(t, "l.csv", "Text,Labels\nhello,greeting\n")
	equal(t, "labels column", read(t, CSV{}, p).Docs[0].Labels, []string{"greeting"})
}

func TestCSVErrors(t *testing.T) {
	cases := []struct {
		name    string
		r       CSV
		content string
		want    []string
	}{
		{"no text column", CSV{}, "body,label\nx,y\n", []string{`no "text" column (header: body, label)`}},
		{"missing label column", CSV{LabelColumn: "tag"}, "text,label\nx,y\n", []string{`label column "tag" not found (header: text, label)`}},
		{"missing id column", CSV{IDColumn: "key"}, "text\nx\n", []string{`id column "key" not found`}},
		{"missing split column", CSV{SplitColumn: "part"}, "text\nx\n", []string{`split column "part" not found`}},
		{"column number out of range", CSV{TextColumn: "3"}, "text,label\nx,y\n", []string{"text column 3 out of range: rows have 2 columns"}},
		{"name without header", CSV{NoHeader: true, TextColumn: "text"}, "x,y\n", []string{"without a header, give a column number"}},
		{"ragged row", CSV{}, "text,label\nx,y\nz\n", []string{"f.csv:3", "wrong number of fields"}},
		{"bad quote", CSV{}, "text\n\"a\"b\"\n", []string{"f.csv:2:", "quote"}},
		{"bad split", CSV{}, "text,split\nx,dev\n", []string{"f.csv:2", `unknown split "dev"`}},
		{"empty id", CSV{}, "id,text\n ,x\n", []string{"f.csv:2: empty ID"}},
		{"repeated id", CSV{}, "id,text\na,x\n\"a\",\"multi\nline\"\na,z\n", []string{"f.csv:3", `ID "a" already used on line 2`}},
		{"empty file", CSV{}, "", []string{"empty file"}},
		{"header only", CSV{}, "text,label\n", []string{"no rows"}},
		{"bad separator", CSV{Comma: '"'}, "text\n", []string{"invalid field separator"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			readErr(t, tc.r, writeTemp(t, "f.csv", tc.content), tc.want...)
		})
	}
	readErr(t, CSV{}, "testdata/table/missing.csv", "missing.csv")
	// LazyQuotes accepts a stray quote.
	c := read(t, CSV{LazyQuotes: true}, writeTemp(t, "f.csv", "text\na \"b\" c\n"))
	equal(t, "lazy", c.Docs[0].Text, `a "b" c`)
}

func TestJSONL(t *testing.T) {
	c := read(t, JSONL{}, "testdata/table/docs.jsonl")
	equal(t, "IDs", ids(c), []string{"a", "line-3", "42", "b"})
	docs := byID(c)
	equal(t, "labels", docs["a"].Labels, []string{"finance", "markets"})
	equal(t, "label", docs["line-3"].Labels, []string{"sport"})
	equal(t, "split", docs["line-3"].Split, SplitTest)
	equal(t, "split", docs["a"].Split, SplitTrain)
	equal(t, "empty text", docs["42"].Text, "")
	if docs["b"].Labels != nil || docs["42"].Labels != nil {
		t.Errorf("unlabeled documents have labels: %q %q", docs["b"].Labels, docs["42"].Labels)
	}

	c = read(t, JSONL{}, writeTemp(t, "l.jsonl", "\xef\xbb\xbf{\"text\": \"caf\xe9\", \"label\": \" \"}\r\n"))
	equal(t, "Latin-1 text", c.Docs[0].Text, "café")
	if c.Docs[0].Labels != nil {
		t.Errorf("blank label gave %q", c.Docs[0].Labels)
	}
	if len(c.Notes) != 1 {
		t.Errorf("notes = %q", c.Notes)
	}
}

func TestJSONLErrors(t *testing.T) {
	cases := []struct{ name, content, want string }{
		{"invalid json", "{\"text\": \"a\"}\n{\"text\": }\n", "f.jsonl:2: invalid character"},
		{"not an object", "[1, 2]\n", "f.jsonl:1: not a JSON object"},
		{"trailing data", `{"text": "a"} {"text": "b"}`, "f.jsonl:1: invalid character"},
		{"missing text", `{"id": "a"}`, `f.jsonl:1: missing "text"`},
		{"null text", `{"text": null}`, `f.jsonl:1: missing "text"`},
		{"text not a string", `{"text": 5}`, "f.jsonl:1: json: cannot unmarshal number"},
		{"repeated id", "{\"id\": \"a\", \"text\": \"\"}\n\n{\"id\": \"a\", \"text\": \"\"}", `f.jsonl:3: ID "a" already used on line 1`},
		{"repeated generated id", "{\"id\": \"line-2\", \"text\": \"\"}\n{\"text\": \"\"}", `f.jsonl:2: ID "line-2" already used on line 1`},
		{"empty id", `{"id": "", "text": ""}`, `f.jsonl:1: empty "id"`},
		{"bad id type", `{"id": true, "text": ""}`, `"id" must be a string or a number`},
		{"labels not strings", `{"text": "", "labels": [1]}`, `"labels" must be an array of strings`},
		{"labels not array", `{"text": "", "labels": "a"}`, `"labels" must be an array of strings`},
		{"empty label", `{"text": "", "labels": ["a", ""]}`, `empty label in "labels"`},
		{"label not string", `{"text": "", "label": ["a"]}`, `"label" must be a string`},
		{"both", `{"text": "", "label": "a", "labels": ["b"]}`, `both "labels" and "label"`},
		{"bad split", `{"text": "", "split": "dev"}`, `unknown split "dev"`},
		{"empty", "\n\n", "no documents"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			readErr(t, JSONL{}, writeTemp(t, "f.jsonl", tc.content), tc.want)
		})
	}
	readErr(t, JSONL{}, "testdata/table/missing.jsonl", "missing.jsonl")
	// Repeated labels collapse; numbers keep their spelling as IDs.
	c := read(t, JSONL{}, writeTemp(t, "f.jsonl", `{"id": 1.50, "text": "", "labels": ["a", "a"]}`))
	equal(t, "ID", c.Docs[0].ID, "1.50")
	equal(t, "labels", c.Docs[0].Labels, []string{"a"})
}

func TestTableCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rows := "text\n" + strings.Repeat("x\n", 3000)
	if _, err := (CSV{}).parse(ctx, "f.csv", []byte(rows)); err == nil {
		t.Error("CSV: no cancellation error")
	}
	lines := strings.Repeat("{\"text\": \"x\"}\n", 3000)
	if _, err := (JSONL{}).parse(ctx, "f.jsonl", []byte(lines)); err == nil {
		t.Error("JSONL: no cancellation error")
	}
}
