package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/semitopic/semitopic/text/wordnet/internal/wndata"
)

func main() {
	src := flag.String("src", "/usr/share/wordnet", "WordNet 3.0 dict folder (index.* and *.exc files)")
	out := flag.String("out", "wordnet.dat.gz", "data file to write")
	flag.Parse()
	if err := run(*src, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(src, out string) error {
	db, err := wndata.ReadDir(src)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := db.Encode(&buf); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(out), ".wordnet-*.tmp")
	if err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return fmt.Errorf("writing %s: %w", out, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
	}
	n := 0
	for _, m := range db.Exceptions {
		n += len(m)
	}
	fmt.Printf("gen: %s: %d lemmas, %d exception forms, %d bytes\n", out, len(db.Lemmas), n, buf.Len())
	return nil
}
