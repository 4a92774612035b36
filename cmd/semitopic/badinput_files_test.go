package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/shard"
)

// tinyMTX is a 6 × 4 corpus with its vocabulary, for fits that must be
// quick.
var tinyMTX = map[string]string{
	"X.mtx":     "%%MatrixMarket matrix coordinate real general\n6 4 12\n1 1 2\n1 2 1\n2 1 3\n2 2 1\n3 3 2\n3 4 1\n4 3 3\n4 4 2\n5 1 1\n5 3 1\n6 2 2\n6 4 1\n",
	"vocab.txt": "apple\nbank\ncash\ndog\n",
}

// withFiles returns a copy of files with more added.
func withFiles(files map[string]string, more map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range []map[string]string{files, more} {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// mustRun runs the CLI in a case's setup.
func mustRun(t *testing.T, args ...string) {
	t.Helper()
	if _, stderr, err := run(t, args...); err != nil {
		t.Fatalf("semitopic %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
}

// shardsAt writes a small synthetic sharded corpus of docs documents to
// dir.
func shardsAt(t *testing.T, dir string, docs int) {
	t.Helper()
	mustRun(t, "synth", "--preset", "small", "--docs", strconv.Itoa(docs), "--terms", "300", "--seed", "2",
		"--format", "shards", "--rows-per-shard", "40", "--out", dir)
}

// exitedPID returns the number of a process that has exited: a killed
// command's, for the temporaries it left.
func exitedPID(t *testing.T) int {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no process check on Windows")
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	return cmd.Process.Pid
}

// killedSwapAt leaves dir as vectorize --shards killed between the two
// renames that swap the folders leaves it: the old corpus (120 documents)
// in .DIR.old-PID-1/corpus, the new one (80 documents) in .DIR.tmp-PID-2,
// complete or not, and no dir.
func killedSwapAt(t *testing.T, dir string, complete bool) {
	t.Helper()
	shardsAt(t, dir, 120)
	next := dir + "-next"
	shardsAt(t, next, 80)
	if !complete {
		if err := os.Remove(filepath.Join(next, shard.ManifestFile)); err != nil {
			t.Fatal(err)
		}
	}
	pid := strconv.Itoa(exitedPID(t))
	parent, base := filepath.Split(dir)
	old := filepath.Join(parent, "."+base+".old-"+pid+"-1")
	if err := os.Mkdir(old, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir, filepath.Join(old, "corpus")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, filepath.Join(parent, "."+base+".tmp-"+pid+"-2")); err != nil {
		t.Fatal(err)
	}
}

// docsIn returns the number of documents of the sharded corpus in dir.
func docsIn(t *testing.T, dir string) int {
	t.Helper()
	m, err := shard.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m.Docs
}

// hiddenIn lists the hidden entries of dir.
func hiddenIn(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		if strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out
}

// unchanged fails unless the file at path still holds body.
func unchanged(t *testing.T, path, body string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != body {
		t.Errorf("%s was changed: %q, %v", path, b[:min(len(b), 40)], err)
	}
}

// The cases of issue 24 on lost data, temporaries and out-of-core state:
// a resume of another fit, outputs over inputs, a folder swap cut in the
// middle, and what killed or failed commands leave behind.
func TestBadInputFiles(t *testing.T) {
	const jsonl = "{\"text\": \"apples and bananas and cherries\", \"label\": \"fruit\"}\n{\"text\": \"banks and loans and money\", \"label\": \"money\"}\n"
	// An interrupted (here finished) nmf fit, k 3, in $D/m.state, with a
	// copy of its checkpoint to compare with.
	nmfState := func(extra ...string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			shardsAt(t, filepath.Join(dir, "S"), 120)
			mustRun(t, append([]string{"fit", "--kind", "nmf", "-k", "3", "--max-iter", "2", "--format", "shards", filepath.Join(dir, "S"),
				"--out-of-core", "--out", filepath.Join(dir, "m.semitopic")}, extra...)...)
			b, err := os.ReadFile(filepath.Join(dir, "m.state", shard.CheckpointFile))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "checkpoint.copy"), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	checkpointKept := func(t *testing.T, dir, _, _ string) {
		want, _ := os.ReadFile(filepath.Join(dir, "checkpoint.copy"))
		got, err := os.ReadFile(filepath.Join(dir, "m.state", shard.CheckpointFile))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("the nmf checkpoint was overwritten or removed (%v)", err)
		}
	}
	resume := func(kind string, extra ...string) []string {
		return append([]string{"fit", "--kind", kind, "-k", "3", "--max-iter", "2", "--format", "shards", "$D/S", "--out-of-core",
			"--out", "$D/m.semitopic", "--resume"}, extra...)
	}
	runBadCases(t, []badCase{
		// Data loss 1: a resume of another fit.
		{name: "resume an nmf checkpoint as lda", setup: nmfState(), args: resume("lda"),
			want: []string{"$D/m.state", "kind nmf in the checkpoint, lda asked", "--state"}, check: checkpointKept},
		{name: "resume with another seed", setup: nmfState(), args: resume("nmf", "--seed", "5"),
			want: []string{"$D/m.state", "seed 0 in the checkpoint, 5 asked"}, check: checkpointKept},
		{name: "resume with another loss", setup: nmfState(), args: resume("nmf", "--loss", "kl"),
			want: []string{"$D/m.state", "loss (default) in the checkpoint, kl asked"}, check: checkpointKept},
		{name: "resume with exclusion words added", setup: nmfState(), files: map[string]string{"a.txt": "topic-1: -w1\n"},
			args: resume("nmf", "--anchors", "$D/a.txt"),
			want: []string{"$D/m.state", "anchors (none) in the checkpoint, topic-1: -w1 asked"}, check: checkpointKept},
		{name: "resume with another corpus", setup: func(t *testing.T, dir string) {
			nmfState()(t, dir)
			if err := os.RemoveAll(filepath.Join(dir, "S")); err != nil {
				t.Fatal(err)
			}
			mustRun(t, "synth", "--preset", "small", "--docs", "120", "--terms", "300", "--seed", "3", "--format", "shards", "--rows-per-shard", "40", "--out", filepath.Join(dir, "S"))
		}, args: resume("nmf"), want: []string{"$D/m.state", "corpus 120 documents × 300 terms"}, check: checkpointKept},
		{name: "damaged checkpoint in a fresh fit's state folder", setup: func(t *testing.T, dir string) {
			shardsAt(t, filepath.Join(dir, "S"), 120)
		}, files: map[string]string{"m.state/checkpoint.bin": "not a checkpoint"},
			args: []string{"fit", "--kind", "nmf", "-k", "3", "--format", "shards", "$D/S", "--out-of-core", "--out", "$D/m.semitopic"},
			want: []string{"$D/m.state/checkpoint.bin", "remove the folder $D/m.state", "another --state"}},
		{name: "resume without a state folder", setup: func(t *testing.T, dir string) { shardsAt(t, filepath.Join(dir, "S"), 120) },
			args: resume("nmf"), want: []string{"--resume", "$D/m.state does not exist"}},
		{name: "a failed out-of-core fit leaves no state folder", setup: func(t *testing.T, dir string) { shardsAt(t, filepath.Join(dir, "S"), 120) },
			args: []string{"fit", "--kind", "nmf", "-k", "3", "--loss", "bogus", "--format", "shards", "$D/S", "--out-of-core", "--out", "$D/m.semitopic"},
			want: []string{"bogus"},
			check: func(t *testing.T, dir, _, _ string) {
				if _, err := os.Stat(filepath.Join(dir, "m.state")); !os.IsNotExist(err) {
					t.Errorf("the state folder is left: %v", err)
				}
			}},
		{name: "lda out of core prints only numbers", setup: func(t *testing.T, dir string) { shardsAt(t, filepath.Join(dir, "S"), 120) },
			args: []string{"fit", "--kind", "lda", "-k", "3", "--max-iter", "3", "--format", "shards", "$D/S", "--out-of-core", "--out", "$D/m.semitopic"},
			ok:   true, want: []string{"iteration 1/3", "estimating the time left"},
			check: func(t *testing.T, _, stdout, stderr string) {
				if strings.Contains(stdout+stderr, "NaN") {
					t.Errorf("NaN printed:\n%s\n%s", stdout, stderr)
				}
			}},

		// Data loss 2: no command writes over what it reads.
		{name: "predict over its input", files: map[string]string{"in.jsonl": jsonl, "m.semitopic": "model"},
			args:  []string{"predict", "--model", "$D/m.semitopic", "--format", "jsonl", "$D/in.jsonl", "--out", "$D/in.jsonl"},
			want:  []string{"--out $D/in.jsonl", "PATH $D/in.jsonl", "writes over a file it reads"},
			check: func(t *testing.T, dir, _, _ string) { unchanged(t, filepath.Join(dir, "in.jsonl"), jsonl) }},
		{name: "transform over its input through another path", files: map[string]string{"in.jsonl": jsonl, "m.semitopic": "model"},
			args:  []string{"transform", "--model", "$D/m.semitopic", "--format", "jsonl", "$D/in.jsonl", "--out", "$D/./sub/../in.jsonl"},
			setup: func(t *testing.T, dir string) { os.Mkdir(filepath.Join(dir, "sub"), 0o755) },
			want:  []string{"--out $D/./sub/../in.jsonl", "PATH $D/in.jsonl"},
			check: func(t *testing.T, dir, _, _ string) { unchanged(t, filepath.Join(dir, "in.jsonl"), jsonl) }},
		{name: "transform over its input through a hard link", files: map[string]string{"in.jsonl": jsonl, "m.semitopic": "model"},
			setup: func(t *testing.T, dir string) {
				if err := os.Link(filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "link.jsonl")); err != nil {
					t.Skip("no hard links:", err)
				}
			},
			args: []string{"transform", "--model", "$D/m.semitopic", "--format", "jsonl", "$D/in.jsonl", "--out", "$D/link.jsonl"},
			want: []string{"--out $D/link.jsonl", "PATH $D/in.jsonl"}},
		{name: "report over its model", files: map[string]string{"m.html": "model"},
			args:  []string{"report", "--model", "$D/m.html", "--out", "$D/m.html"},
			want:  []string{"--out $D/m.html", "--model $D/m.html"},
			check: func(t *testing.T, dir, _, _ string) { unchanged(t, filepath.Join(dir, "m.html"), "model") }},
		{name: "fit over its anchors file", files: withFiles(tinyMTX, map[string]string{"a.semitopic": "apples: apple\n"}),
			args: []string{"fit", "--kind", "nmf", "-k", "2", "--format", "mtx", "$D/X.mtx", "--anchors", "$D/a.semitopic", "--out", "$D/a.semitopic"},
			want: []string{"--out $D/a.semitopic", "--anchors $D/a.semitopic"}},
		{name: "fit into its corpus folder", files: map[string]string{"docs/a.txt": "apple banana", "docs/b.txt": "bank loan"},
			args: []string{"fit", "--kind", "nmf", "-k", "2", "--format", "dir", "$D/docs", "--out", "$D/docs/m.semitopic"},
			want: []string{"--out $D/docs/m.semitopic", "inside PATH $D/docs"}},
		{name: "out-of-core state in the corpus folder", setup: func(t *testing.T, dir string) { shardsAt(t, filepath.Join(dir, "S"), 120) },
			args: []string{"fit", "--kind", "nmf", "-k", "3", "--format", "shards", "$D/S", "--out-of-core", "--out", "$D/m.semitopic", "--state", "$D/S"},
			want: []string{"--state $D/S", "PATH $D/S"},
			check: func(t *testing.T, dir, _, _ string) {
				if es, _ := filepath.Glob(filepath.Join(dir, "S", "*.f64")); len(es) > 0 {
					t.Errorf("state written into the corpus: %v", es)
				}
			}},
		{name: "vectorize mtx beside its input: the default vocabulary", files: withFiles(tinyMTX, map[string]string{"labels.txt": "a\nb\na\nb\na\nb\n"}),
			args: []string{"vectorize", "--format", "mtx", "$D/X.mtx", "--subset", "all", "--out", "$D/Y.mtx"},
			want: []string{"--vocab (default: beside --out) $D/vocab.txt", "the vocabulary beside PATH, $D/vocab.txt"},
			check: func(t *testing.T, dir, _, _ string) {
				unchanged(t, filepath.Join(dir, "vocab.txt"), tinyMTX["vocab.txt"])
				if _, err := os.Stat(filepath.Join(dir, "Y.mtx")); err == nil {
					t.Error("Y.mtx written")
				}
			}},
		{name: "vectorize with --labels over the input's labels", files: withFiles(tinyMTX, map[string]string{"labels.txt": "a\nb\na\nb\na\nb\n"}),
			args: []string{"vectorize", "--format", "mtx", "$D/X.mtx", "--out", "$D/out/Y.mtx", "--labels", "$D/labels.txt"},
			want: []string{"--labels $D/labels.txt", "the labels beside PATH, $D/labels.txt"},
			check: func(t *testing.T, dir, _, _ string) {
				if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
					t.Error("the refused command made the --out folder")
				}
			}},
		{name: "vectorize two outputs on one file", files: map[string]string{"in.jsonl": jsonl},
			args: []string{"vectorize", "--format", "jsonl", "$D/in.jsonl", "--out", "$D/X.mtx", "--vocab", "$D/v.txt", "--labels", "$D/v.txt"},
			want: []string{"--vocab $D/v.txt and --labels $D/v.txt are the same file"}},
		{name: "vectorize --shards over its input folder", files: map[string]string{"docs/a.txt": "apple banana cherry", "docs/b.txt": "bank loan money"},
			args: []string{"vectorize", "--format", "dir", "$D/docs", "--shards", "$D/docs"},
			want: []string{"--shards $D/docs", "PATH $D/docs", "writes over"},
			check: func(t *testing.T, dir, _, _ string) {
				unchanged(t, filepath.Join(dir, "docs", "a.txt"), "apple banana cherry")
			}},
		{name: "vectorize --shards over a folder that is not a corpus", files: withFiles(tinyMTX, map[string]string{"keep/notes.txt": "precious"}),
			args: []string{"vectorize", "--format", "mtx", "$D/X.mtx", "--shards", "$D/keep"},
			want: []string{"--shards", "$D/keep", "not a sharded corpus", "notes.txt"},
			check: func(t *testing.T, dir, _, _ string) {
				unchanged(t, filepath.Join(dir, "keep", "notes.txt"), "precious")
			}},

		// Data loss 3: a swap of folders killed between its two renames.
		{name: "reading shards after a swap killed with the new corpus complete", setup: func(t *testing.T, dir string) {
			killedSwapAt(t, filepath.Join(dir, "S"), true)
		}, args: []string{"corpus", "stats", "--format", "shards", "$D/S"}, ok: true,
			want: []string{"note: $D/S: finished its replacement", "80"},
			check: func(t *testing.T, dir, _, _ string) {
				if n := docsIn(t, filepath.Join(dir, "S")); n != 80 {
					t.Errorf("%d documents, want the new corpus's 80", n)
				}
				if h := hiddenIn(t, dir); len(h) > 0 {
					t.Errorf("left: %v", h)
				}
			}},
		{name: "fit out of core after a swap killed before the new corpus was complete", setup: func(t *testing.T, dir string) {
			killedSwapAt(t, filepath.Join(dir, "S"), false)
		}, args: []string{"fit", "--kind", "nmf", "-k", "3", "--max-iter", "2", "--format", "shards", "$D/S", "--out-of-core", "--out", "$D/m.semitopic"},
			ok: true, want: []string{"note: $D/S: put back from $D/.S.old-", "fitted out of core on 120 documents"}},
		{name: "vectorize --shards after a swap killed", setup: func(t *testing.T, dir string) {
			killedSwapAt(t, filepath.Join(dir, "S"), false)
		}, files: tinyMTX, args: []string{"vectorize", "--format", "mtx", "$D/X.mtx", "--shards", "$D/S"},
			ok: true, want: []string{"note: $D/S: put back from", "wrote 1 shards to $D/S"},
			check: func(t *testing.T, dir, _, _ string) {
				if n := docsIn(t, filepath.Join(dir, "S")); n != 6 {
					t.Errorf("%d documents, want X.mtx's 6", n)
				}
				if h := hiddenIn(t, dir); len(h) > 0 {
					t.Errorf("left: %v", h)
				}
			}},

		// Temporaries: what a killed save left goes with the next save; a
		// live writer's stays.
		{name: "a killed save's temporary goes with the next save", files: tinyMTX,
			setup: func(t *testing.T, dir string) {
				pid := strconv.Itoa(exitedPID(t))
				if err := os.WriteFile(filepath.Join(dir, ".m.semitopic.tmp-"+pid+"-7"), bytes.Repeat([]byte("x"), 1<<20), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, ".m.semitopic.tmp-"+strconv.Itoa(os.Getpid())+"-8"), []byte("live"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			args: []string{"fit", "--kind", "nmf", "-k", "2", "--format", "mtx", "$D/X.mtx", "--out", "$D/m.semitopic"},
			ok:   true, want: []string{"saved $D/m.semitopic"},
			check: func(t *testing.T, dir, _, _ string) {
				if h := hiddenIn(t, dir); !slices.Equal(h, []string{".m.semitopic.tmp-" + strconv.Itoa(os.Getpid()) + "-8"}) {
					t.Errorf("hidden entries %v, want the live writer's only", h)
				}
			}},
		{name: "a killed shard write's folder goes with the next one", files: tinyMTX,
			setup: func(t *testing.T, dir string) {
				p := filepath.Join(dir, ".S.tmp-"+strconv.Itoa(exitedPID(t))+"-3")
				if err := os.MkdirAll(p, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(p, "shard-00000.bin"), []byte("partial"), 0o644); err != nil {
					t.Fatal(err)
				}
			},
			args: []string{"vectorize", "--format", "mtx", "$D/X.mtx", "--shards", "$D/S"},
			ok:   true, want: []string{"wrote 1 shards to $D/S"},
			check: func(t *testing.T, dir, _, _ string) {
				if h := hiddenIn(t, dir); len(h) > 0 {
					t.Errorf("left: %v", h)
				}
			}},
	})
}
