package wndata

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeDict writes a tiny WordNet dict folder; files maps names to text.
func writeDict(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	base := map[string]string{
		"index.noun": "  1 licence header line  \n  2 more header  \n" +
			"dog n 2 1 @ 2 1 02084071 10114209  \ndogfish n 1 0 1 0 01491661  \n" +
			"hot_dog n 1 0 1 0 07697537  \n",
		"index.verb": "dog v 1 0 1 0 02005948  \n",
		"index.adj":  "good a 1 0 1 0 01123148  \n",
		"index.adv":  "well r 1 0 1 0 00011093  \n",
		"noun.exc":   "aurar eyir\naurar eyrir\ngeese goose\n",
		"verb.exc":   "was be\n",
		"adj.exc":    "better good well\n",
		"adv.exc":    "best well\n",
	}
	for k, v := range files {
		base[k] = v
	}
	for name, text := range base {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReadDir(t *testing.T) {
	db, err := ReadDir(writeDict(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	wantLemmas := map[string]uint8{
		"dog":     MaskNoun | MaskVerb,
		"hot_dog": MaskNoun,
		"dogfish": MaskNoun,
		"good":    MaskAdj | MaskAdjSat,
		"well":    MaskAdv,
	}
	if !reflect.DeepEqual(db.Lemmas, wantLemmas) {
		t.Errorf("lemmas = %v, want %v", db.Lemmas, wantLemmas)
	}
	wantExc := [4]map[string][]string{
		{"aurar": {"eyrir"}, "geese": {"goose"}}, // the last line wins
		{"was": {"be"}},
		{"better": {"good", "well"}},
		{"best": {"well"}},
	}
	if !reflect.DeepEqual(db.Exceptions, wantExc) {
		t.Errorf("exceptions = %v, want %v", db.Exceptions, wantExc)
	}
}

func TestReadDirErrors(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"index.noun:1": {"index.noun": "dog\n"},
		"index.verb:2": {"index.verb": "dog v 1 0 1 0 02005948\nrun q 1 0 1 0 1\n"},
		"index.adj:1":  {"index.adj": "good a 2 0 1 0 01123148\n"},
		"index.adv:1":  {"index.adv": "well r 1 0 1 0\n"},
		"noun.exc:2":   {"noun.exc": "geese goose\n\n"},
		"verb.exc:1":   {"verb.exc": "was \xff\n"},
	} {
		_, err := ReadDir(writeDict(t, files))
		if err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error %v, want one naming the place", name, err)
		}
	}
	if _, err := ReadDir(t.TempDir()); err == nil || !strings.Contains(err.Error(), "index.noun") {
		t.Errorf("empty folder: error %v, want one naming index.noun", err)
	}
}

func TestEncode(t *testing.T) {
	db, err := ReadDir(writeDict(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := db.Encode(&a); err != nil {
		t.Fatal(err)
	}
	if err := db.Encode(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two encodings differ")
	}
	zr, err := gzip.NewReader(bytes.NewReader(a.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !zr.ModTime.IsZero() || zr.Name != "" || zr.Comment != "" {
		t.Errorf("gzip header has time %v, name %q, comment %q", zr.ModTime, zr.Name, zr.Comment)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	want := "STWN\x01\x05" + // magic, version, 5 lemmas
		"\x00\x03\x00\x00\x00" + // shared prefixes: dog, dog|fish, good, hot_dog, well
		"dog\nfish\ngood\nhot_dog\nwell\n" +
		"\x03\x01\x14\x01\x08" +
		"\x02aurar eyrir \ngeese goose \n" +
		"\x01was be \n" +
		"\x01better good well \n" +
		"\x01best well \n"
	if string(raw) != want {
		t.Errorf("encoded\n%q\nwant\n%q", raw, want)
	}
	bad := &DB{Lemmas: map[string]uint8{"a b": MaskNoun}}
	if err := bad.Encode(io.Discard); err == nil {
		t.Error("lemma with a space: no error")
	}
	bad = &DB{Lemmas: map[string]uint8{strings.Repeat("a", MaxLemmaLen+1): MaskNoun}}
	if err := bad.Encode(io.Discard); err == nil {
		t.Error("over-long lemma: no error")
	}
}
