package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// badCase is one bad or edge input given to the CLI as a new user would,
// with what the command must say about it. Each area's cases live in its
// own badinput_*_test.go file and run through runBadCases.
type badCase struct {
	// name names the case in failures.
	name string
	// files are written into the case's own temporary folder before it
	// runs (path relative to the folder → contents); setup, when set, runs
	// after them, for inputs that need more than files.
	files map[string]string
	setup func(t *testing.T, dir string)
	// args are the command's arguments; "$D" in an argument stands for
	// the case's folder.
	args []string
	// stdin is the command's standard input.
	stdin string
	// ok says the command must succeed (a silent case made to speak: a
	// note on standard error or output); otherwise it must fail.
	ok bool
	// want lists what the error (or, with ok, standard output and error
	// together) must contain, each with "$D" standing for the folder: the
	// file, line, member or flag the message names, and the words that
	// say what is wrong.
	want []string
	// check, when set, makes further assertions after the run (files left
	// untouched, no temporaries left behind).
	check func(t *testing.T, dir string, stdout, stderr string)
}

// runBadCases runs each case in a folder of its own, as a subtest.
func runBadCases(t *testing.T, cases []badCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, body := range c.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if c.setup != nil {
				c.setup(t, dir)
			}
			args := make([]string, len(c.args))
			for i, a := range c.args {
				args[i] = strings.ReplaceAll(a, "$D", dir)
			}
			var out, errb bytes.Buffer
			root := newRoot(&out, &errb)
			root.SetIn(strings.NewReader(c.stdin))
			root.SetArgs(args)
			err := root.ExecuteContext(context.Background())
			var said string
			switch {
			case c.ok && err != nil:
				t.Fatalf("semitopic %s: %v", strings.Join(args, " "), err)
			case c.ok:
				said = out.String() + errb.String()
			case err == nil:
				t.Fatalf("semitopic %s: no error\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), out.String(), errb.String())
			default:
				said = err.Error()
			}
			for _, w := range c.want {
				w = strings.ReplaceAll(w, "$D", dir)
				if !strings.Contains(said, w) {
					t.Errorf("semitopic %s: the message does not say %q:\n%s", strings.Join(args, " "), w, said)
				}
			}
			if c.check != nil {
				c.check(t, dir, out.String(), errb.String())
			}
		})
	}
}

// The table's first cases: inputs that were already handled clearly,
// kept here so that they stay so.
func TestBadInputBasics(t *testing.T) {
	runBadCases(t, []badCase{
		{name: "missing file", args: []string{"corpus", "stats", "--format", "jsonl", "$D/missing.jsonl"},
			want: []string{"$D/missing.jsonl", "no such file"}},
		{name: "jsonl syntax error", files: map[string]string{"c.jsonl": "{\"text\": \"a b c\"}\n{\"text\": oops}\n"},
			args: []string{"corpus", "stats", "--format", "jsonl", "$D/c.jsonl"},
			want: []string{"c.jsonl:2:"}},
	})
}
