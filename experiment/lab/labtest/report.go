package labtest

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// Report is a report written by lab.Report, read back: its title and its
// sections in order.
type Report struct {
	// Path is the file it was read from and Text all of it.
	Path, Text string
	// Title is the text of the "# " heading.
	Title    string
	Sections []Section
}

// Section is the text under a "## " heading (the part before the first
// heading has an empty Heading) and the tables in it.
type Section struct {
	Heading, Text string
	Tables        []Table
}

// Table is a Markdown table: its header and its rows of cells, trimmed.
type Table struct {
	Header []string
	Rows   [][]string
}

// ReadReport reads the report NAME.md in dir, failing t if it is missing.
func ReadReport(t testing.TB, dir, name string) *Report {
	t.Helper()
	path := filepath.Join(dir, name+".md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("report: %v", err)
	}
	r := &Report{Path: path, Text: string(b)}
	cur := &Section{}
	var table *Table
	flush := func() {
		if table != nil {
			cur.Tables = append(cur.Tables, *table)
			table = nil
		}
	}
	for _, line := range strings.Split(r.Text, "\n") {
		switch {
		case strings.HasPrefix(line, "# ") && r.Title == "":
			r.Title = strings.TrimPrefix(line, "# ")
			continue
		case strings.HasPrefix(line, "## "):
			flush()
			r.Sections = append(r.Sections, *cur)
			cur = &Section{Heading: strings.TrimPrefix(line, "## ")}
			continue
		case strings.HasPrefix(line, "|"):
			cells := splitRow(line)
			switch {
			case table == nil:
				table = &Table{Header: cells}
			case len(table.Rows) == 0 && len(cells) > 0 && cells[0] == "---":
				// the separator line
			default:
				table.Rows = append(table.Rows, cells)
			}
		default:
			flush()
		}
		cur.Text += line + "\n"
	}
	flush()
	r.Sections = append(r.Sections, *cur)
	return r
}

// splitRow returns the cells of a table line, reading "\|" as a "|" inside
// a cell (lab.Report.Table escapes them so).
func splitRow(line string) []string {
	line = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "|"), "|")
	var cells []string
	var cell strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cell.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cell.String()))
			cell.Reset()
		default:
			cell.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(cell.String()))
}

// Section returns the section whose heading starts with prefix, failing t
// if there is none.
func (r *Report) Section(t testing.TB, prefix string) *Section {
	t.Helper()
	for i := range r.Sections {
		if r.Sections[i].Heading != "" && strings.HasPrefix(r.Sections[i].Heading, prefix) {
			return &r.Sections[i]
		}
	}
	var have []string
	for _, s := range r.Sections {
		have = append(have, s.Heading)
	}
	t.Fatalf("%s: no section %q (have %q)", r.Path, prefix, have)
	return nil
}

// Table returns the section's i-th table, failing t if it has fewer, or if
// the table's header is not header (when header is given) or any row has
// another number of cells than the header.
func (s *Section) Table(t testing.TB, i int, header ...string) Table {
	t.Helper()
	if i >= len(s.Tables) {
		t.Fatalf("section %q has %d tables, want at least %d", s.Heading, len(s.Tables), i+1)
	}
	tb := s.Tables[i]
	if header != nil && strings.Join(tb.Header, "|") != strings.Join(header, "|") {
		t.Fatalf("section %q, table %d: header\n%q\nwant\n%q", s.Heading, i, tb.Header, header)
	}
	for _, row := range tb.Rows {
		if len(row) != len(tb.Header) {
			t.Fatalf("section %q, table %d: row %q has %d cells, header %d", s.Heading, i, row, len(row), len(tb.Header))
		}
	}
	return tb
}

// Column returns the cells of the named column, failing t if the table
// has no such column.
func (tb Table) Column(t testing.TB, name string) []string {
	t.Helper()
	for j, h := range tb.Header {
		if h == name {
			out := make([]string, len(tb.Rows))
			for i, row := range tb.Rows {
				out[i] = row[j]
			}
			return out
		}
	}
	t.Fatalf("table %q has no column %q", tb.Header, name)
	return nil
}

// Number returns the first number of a cell such as "81.25 ± 0.40",
// "**0.0131**" or "0.5 (12 it.) ✓", and NaN when the cell does not start
// with one.
func Number(cell string) float64 {
	s := strings.TrimLeft(cell, "*")
	end := 0
	for end < len(s) && strings.IndexByte("+-0123456789.eE", s[end]) >= 0 {
		end++
	}
	for end > 0 {
		if v, err := strconv.ParseFloat(s[:end], 64); err == nil {
			return v
		}
		end--
	}
	return math.NaN()
}

// ReadJSON decodes the raw results file in dir into v, failing t if it is
// missing or does not decode.
func ReadJSON(t testing.TB, dir, file string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatalf("raw results: %v", err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("raw results %s: %v", file, err)
	}
}
