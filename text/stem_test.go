package text

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/semitopic/semitopic/internal/atomicfile"
	"github.com/semitopic/semitopic/internal/datadir"
)

// snowballData is the commit of github.com/snowballstem/snowball-data
// whose reference vocabularies testdata/snowball samples: the stems of the
// Snowball sources package text/internal/snowball is generated from.
const snowballData = "ba91f32bb9c5c25634eaa36e9dadb869f519ebd9"

// snowballDataEnglish is the older snowball-data commit whose English
// vocabulary gives the stems of Snowball 2.2.0's English algorithm, the
// one semitopic keeps (the newer vocabulary differs on 57 of 42,649
// words).
const snowballDataEnglish = "4412ee8084eb986d03e9bbd5fc56557ca0d54403"

// samplePairs is the most word–stem pairs a sample holds per language.
const samplePairs = 1000

var writeSnowballSamples = flag.String("write-snowball-samples", "", "rewrite testdata/snowball from this git clone of github.com/snowballstem/snowball-data")

// noReference are the languages with a stemmer but no sample of a
// reference vocabulary, and why.
var noReference = map[string]string{
	"ar": "snowball-data's Arabic vocabulary is under the GPL",
	"ta": "snowball-data's Tamil vocabulary was not at hand when the samples were made",
}

// TestSnowballVocabulary checks that every stemmer gives exactly the stems
// of a sample of the Snowball project's reference vocabulary of its
// language (testdata/snowball/CODE.txt.gz; see the README there). With
// -write-snowball-samples it first makes the samples again.
func TestSnowballVocabulary(t *testing.T) {
	if *writeSnowballSamples != "" {
		writeSamples(t, *writeSnowballSamples)
	}
	var codes []string
	for code := range stemFuncs {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	files, err := filepath.Glob("testdata/snowball/*.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if code := strings.TrimSuffix(filepath.Base(f), ".txt.gz"); !slices.Contains(codes, code) {
			t.Errorf("%s: no stemmer for %q", f, code)
		}
	}
	for _, code := range codes {
		if why, ok := noReference[code]; ok {
			t.Logf("%s: no reference sample (%s)", code, why)
			continue
		}
		stem, err := stemmer(code)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join("testdata", "snowball", code+".txt.gz")
		pairs, err := readSample(file)
		if err != nil {
			t.Error(err)
			continue
		}
		wrong := 0
		for _, p := range pairs {
			if got := stem(p.word); got != p.stem {
				if wrong++; wrong <= 10 {
					t.Errorf("%s line %d: %s stems to %q, want %q", file, p.line, p.word, got, p.stem)
				}
			}
		}
		if wrong > 10 {
			t.Errorf("%s: %d of %d words stem otherwise", file, wrong, len(pairs))
		}
		if len(pairs) < samplePairs*9/10 {
			t.Errorf("%s: only %d words", file, len(pairs))
		}
	}
}

// samplePair is one word of a sample and its reference stem.
type samplePair struct {
	word, stem string
	line       int
}

// readSample reads a gzipped sample: a comment line, then one word and
// its stem per line, separated by a space.
func readSample(path string) ([]samplePair, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var pairs []samplePair
	sc := bufio.NewScanner(z)
	for line := 1; sc.Scan(); line++ {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		word, stem, ok := strings.Cut(sc.Text(), " ")
		if !ok || word == "" || stem == "" {
			return nil, fmt.Errorf("%s line %d: %q is not a word and its stem", path, line, sc.Text())
		}
		pairs = append(pairs, samplePair{word, stem, line})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return pairs, nil
}

// writeSamples writes testdata/snowball/CODE.txt.gz for every stemmer
// with a reference vocabulary: every n-th word of the vocabulary
// (voc.txt) of a clone of snowball-data and its stem (output.txt), n the
// smallest that leaves at most samplePairs words.
func writeSamples(t *testing.T, clone string) {
	for code := range stemFuncs {
		if _, ok := noReference[code]; ok {
			continue
		}
		l, err := LookupLanguage(code)
		if err != nil {
			t.Fatal(err)
		}
		name, commit := strings.ToLower(l.Name), snowballData
		if code == "en" {
			commit = snowballDataEnglish
		}
		show := func(file string) []string {
			out, err := exec.Command("git", "-C", clone, "show", commit+":"+name+"/"+file).Output()
			if err != nil {
				t.Fatalf("%s: git show %s:%s/%s: %v", clone, commit, name, file, err)
			}
			return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		}
		voc, stems := show("voc.txt"), show("output.txt")
		if len(voc) != len(stems) {
			t.Fatalf("%s: %s/voc.txt has %d words, output.txt %d", commit, name, len(voc), len(stems))
		}
		n := (len(voc) + samplePairs - 1) / samplePairs
		path := filepath.Join("testdata", "snowball", code+".txt.gz")
		err = atomicfile.WriteFile(path, func(w io.Writer) error {
			z := gzip.NewWriter(w)
			fmt.Fprintf(z, "# One word in %d of %s/voc.txt (%d words), from the first, and its stem (%s/output.txt), of github.com/snowballstem/snowball-data at commit %s\n", n, name, len(voc), name, commit)
			for i := 0; i < len(voc); i += n {
				if strings.ContainsAny(voc[i], " \t") || strings.ContainsAny(stems[i], " \t") {
					return fmt.Errorf("%s/voc.txt line %d: %q or its stem %q holds a space", name, i+1, voc[i], stems[i])
				}
				fmt.Fprintf(z, "%s %s\n", voc[i], stems[i])
			}
			return z.Close()
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// englishStems20NG is the SHA-256 of "word\tstem\n" for every distinct
// word of 20 Newsgroups (runs of letters and apostrophes, lower-cased,
// sorted) as github.com/blevesearch/snowballstem v0.9.0's English stemmer,
// which semitopic used before text/internal/snowball, stemmed them (124,376
// words).
const englishStems20NG = "c6a63e16402fdce385f8f4375ede15816769741f3dc2ffaec5a4ee87bad81924"

// TestEnglishStemsUnmoved checks that the English stems of every word of
// 20 Newsgroups are still those of the stemmer semitopic used before.
func TestEnglishStemsUnmoved(t *testing.T) {
	path := datadir.Require(t, "20news-bydate/20news-bydate.tar.gz")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	tr := tar.NewReader(z)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.ToLower(string(b))
		start := -1
		for i, r := range text + " " {
			if unicode.IsLetter(r) || r == '\'' {
				if start < 0 {
					start = i
				}
				continue
			}
			if start >= 0 && !seen[text[start:i]] {
				seen[text[start:i]] = true
			}
			start = -1
		}
	}
	words := make([]string, 0, len(seen))
	for w := range seen {
		words = append(words, w)
	}
	slices.Sort(words)
	stem, err := stemmer("en")
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	for _, w := range words {
		fmt.Fprintf(h, "%s\t%s\n", w, stem(w))
	}
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != englishStems20NG {
		t.Errorf("the English stems of the %d words of 20 Newsgroups moved: SHA-256 %s, want %s", len(words), got, englishStems20NG)
	}
}
