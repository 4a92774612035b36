package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/text"
)

// germanDocs are short German texts on two themes.
var germanDocs = map[string][]string{
	"fussball": {
		"Die Mannschaft gewann das Spiel mit drei Toren, und der Trainer lobte die Spieler.",
		"Der Stürmer schoss zwei Tore, aber das Spiel endete trotzdem unentschieden.",
		"Im Stadion sahen die Fans ein spannendes Spiel der beiden Mannschaften.",
		"Der Torwart hielt einen Elfmeter, und seine Mannschaft gewann die Meisterschaft.",
		"Nach dem Spiel sprach der Trainer über die Tore und die Abwehr der Mannschaft.",
		"Die Spieler feierten den Sieg im Stadion mit ihren Fans bis spät in die Nacht.",
		"Ein Tor in der letzten Minute entschied das Spiel um den Pokal.",
		"Die Abwehr der Mannschaft ließ im ganzen Spiel kein Tor zu.",
	},
	"kochen": {
		"Für das Rezept braucht man Mehl, Zucker, Eier und eine warme Küche.",
		"Der Koch schneidet das Gemüse und kocht eine Suppe mit frischen Kräutern.",
		"Im Ofen backt der Kuchen eine Stunde, bis er goldbraun ist.",
		"Die Suppe schmeckt besser mit Salz, Pfeffer und frischem Gemüse aus dem Garten.",
		"Ein gutes Rezept für Brot braucht nur Mehl, Wasser, Salz und Hefe.",
		"In der Küche backen wir einen Kuchen mit Äpfeln und Zimt.",
		"Der Koch würzt das Fleisch und brät es in der Pfanne mit Zwiebeln.",
		"Frisches Gemüse und Kräuter machen jede Suppe und jedes Rezept besser.",
	},
}

// TestFitGerman fits a German corpus with --language auto and a German
// anchors file: the language is detected and saved with the model, no
// German stopword is among the topics' words, the seed "Spiele" meets the
// stem of "Spiel", and transform reads new German text the same way.
func TestFitGerman(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "de.jsonl")
	var sb strings.Builder
	for theme, docs := range germanDocs {
		for i, d := range docs {
			js, _ := json.Marshal(map[string]any{"id": theme + strconv.Itoa(i), "text": d})
			sb.Write(append(js, '\n'))
		}
	}
	if err := os.WriteFile(in, []byte(sb.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	anchors := filepath.Join(dir, "anchors.txt")
	if err := os.WriteFile(anchors, []byte("fußball: Spiele, Tore\nkochen: Rezepte, Suppen\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := filepath.Join(dir, "de.semitopic")
	out, errOut, err := run(t, "fit", "--format", "jsonl", in, "--kind", "nmf", "-k", "2", "--language", "auto", "--min-df", "1",
		"--anchors", anchors, "--seed", "1", "--json", "--top", "8", "--out", m)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if !strings.Contains(errOut, "language: detected de (German) in 16 of 16 texts") {
		t.Errorf("fit stderr does not say the language:\n%s", errOut)
	}
	if strings.Contains(errOut, "drops it") {
		t.Errorf("a seed word is dropped:\n%s", errOut)
	}
	var res struct {
		Topics []struct {
			Name  string
			Words []struct{ Word string }
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	stop, _ := text.Stopwords("nltk-de")
	words := map[string][]string{}
	for _, tp := range res.Topics {
		for _, w := range tp.Words {
			words[tp.Name] = append(words[tp.Name], w.Word)
			for _, s := range stop {
				if w.Word == s {
					t.Errorf("topic %s: stopword %q", tp.Name, s)
				}
			}
		}
	}
	if got := strings.Join(words["fußball"], " "); !strings.Contains(" "+got+" ", " spiel ") || !strings.Contains(" "+got+" ", " tor ") {
		t.Errorf("the seed topic fußball has %q, without the stems spiel and tor", got)
	}
	f, err := model.LoadFile(m)
	if err != nil {
		t.Fatal(err)
	}
	if f.Vectorizer == nil || f.Vectorizer.Analyzer().Options().Language != "de" || f.Vectorizer.Analyzer().Options().Morph != text.Stem {
		t.Fatalf("saved pipeline: %+v", f.Vectorizer)
	}
	// New text: "Spiele" and "Toren" are read as the stems of the vocabulary.
	newDoc := filepath.Join(dir, "new.jsonl")
	os.WriteFile(newDoc, []byte(`{"id":"n1","text":"Spiele mit vielen Toren"}`+"\n"+`{"id":"n2","text":"Suppen nach Rezepten"}`+"\n"), 0o644)
	csvPath := filepath.Join(dir, "dt.csv")
	if _, errOut, err := run(t, "transform", "--model", m, "--format", "jsonl", newDoc, "--out", csvPath); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	fh, _ := os.Open(csvPath)
	recs, err := csv.NewReader(fh).ReadAll()
	fh.Close()
	if err != nil || len(recs) != 3 {
		t.Fatalf("transform CSV %v, %v", recs, err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	num := func(s string) float64 { v, _ := strconv.ParseFloat(s, 64); return v }
	if r := recs[1]; num(r[col["fußball"]]) <= num(r[col["kochen"]]) {
		t.Errorf("a text on football reads as %v (header %v)", r, recs[0])
	}
	if r := recs[2]; num(r[col["kochen"]]) <= num(r[col["fußball"]]) {
		t.Errorf("a text on cooking reads as %v (header %v)", r, recs[0])
	}
}

// TestLanguageFlagErrors checks the errors of --language and --stopwords.
func TestLanguageFlagErrors(t *testing.T) {
	labeled, _ := writeDemoJSONL(t)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--language", "xx"}, `unknown language "xx"`},
		{[]string{"--language", "he", "--morph", "stem"}, "no Snowball stemmer for Hebrew"},
		{[]string{"--stopwords", "nltk-xx"}, `unknown list "nltk-xx"`},
	} {
		args := append([]string{"fit", "--format", "jsonl", labeled, "--kind", "nmf", "-k", "2", "--out", filepath.Join(t.TempDir(), "m.semitopic")}, c.args...)
		_, errOut, err := run(t, args...)
		if err == nil || !strings.Contains(err.Error()+errOut, c.want) {
			t.Errorf("%v: %v %s, want %q", c.args, err, errOut, c.want)
		}
	}
	// Lemmas on German are English: a note says so.
	_, errOut, err := run(t, "corpus", "stats", "--format", "jsonl", labeled, "--language", "de", "--morph", "lemma")
	if err != nil || !strings.Contains(errOut, "lemmas are English") {
		t.Errorf("lemmas on German: %v, stderr %s", err, errOut)
	}
}
