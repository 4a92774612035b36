package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScalingTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fits.jsonl")
	lines := `{"kind":"nmf","mode":"mem","docs":100,"procs":1,"seconds_per_iteration":4}
{"kind":"nmf","mode":"mem","docs":100,"procs":2,"seconds_per_iteration":2.5}
{"kind":"nmf","mode":"mem","docs":100,"procs":2,"seconds_per_iteration":9}
{"kind":"nmf","mode":"mem","docs":100,"procs":2,"seconds_per_iteration":2.4}
{"kind":"nmf","mode":"ooc","docs":100,"procs":2,"seconds_per_iteration":3}

{"kind":"lda","mode":"ooc","docs":100,"failed":true,"exit":137}
`
	if err := os.WriteFile(path, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := scalingTable(path, &b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	// 2 cores: the median of 2.4, 2.5 and 9; efficiency 4 / (2 · 2.5).
	for _, want := range []string{
		"| NMF | in memory | 4.000 | 100% | 2.500 | 80% | – |  | – |",
		"| NMF | out of core | – |  | 3.000 |  | – |",
		"100 documents",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "LDA") || strings.Contains(out, "CorEx") {
		t.Errorf("rows without fits:\n%s", out)
	}
	bad := `{"kind":"nmf","mode":"mem","docs":100,"procs":1,"seconds_per_iteration":4}
{"kind":"nmf","mode":"mem","docs":200,"procs":2,"seconds_per_iteration":2}
`
	if err := os.WriteFile(path, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := scalingTable(path, &b); err == nil || !strings.Contains(err.Error(), "corpus sizes") {
		t.Fatalf("fits of two corpus sizes: %v", err)
	}
}
