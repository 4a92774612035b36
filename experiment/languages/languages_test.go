package languages

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/experiment/lab"
)

// A tiny DEP-11 stream: a header, then components on two themes with
// their descriptions in English, German and Japanese (one German copy of
// the English original, which must not count).
func tinyDEP11() string {
	var b strings.Builder
	b.WriteString("---\nFile: DEP-11\nVersion: '0.16'\n")
	themes := []struct {
		cat, en, de, ja string
	}{
		{"Game", "<p>A board game: players move stones on the board and score points in each round.</p>",
			"<p>Ein Brettspiel: die Spieler ziehen Steine auf dem Spielbrett und sammeln Punkte in jeder Runde.</p>",
			"<p>ボードゲームです。プレイヤーは盤上で石を動かし、各ラウンドで得点を集めます。</p>"},
		{"Graphics", "<p>An image editor: draw pictures, edit photos and export images in many formats.</p>",
			"<p>Ein Bildbearbeitungsprogramm: zeichnen Sie Bilder, bearbeiten Sie Fotos und exportieren Sie Grafiken.</p>",
			"<p>画像編集ソフトです。絵を描き、写真を編集し、さまざまな形式で画像を書き出します。</p>"},
	}
	for i := 0; i < 40; i++ {
		th := themes[i%2]
		de := th.de
		if i == 0 {
			de = th.en
		}
		fmt.Fprintf(&b, "---\nType: desktop-application\nID: app%d.desktop\nSummary:\n  C: app %d\n  de: Anwendung %d\nDescription:\n  C: %q\n  de: %q\n  ja: %q\nCategories:\n- %s\n- Other\n",
			i, i, i, th.en, de, th.ja, th.cat)
	}
	return b.String()
}

// The protocol on the tiny stream: the DEP-11 reader, the documents of
// each language, both pipelines, the report and its JSON.
func TestLanguagesTiny(t *testing.T) {
	comps, err := parseDEP11("tiny.yml", strings.NewReader(tinyDEP11()))
	if err != nil {
		t.Fatal(err)
	}
	if len(comps) != 40 || comps[1].class() != "Graphics" {
		t.Fatalf("%d components, the second of class %q", len(comps), comps[1].class())
	}
	if docs := documents(comps, "de", 6); len(docs) != 39 {
		t.Errorf("%d German documents, want 39 (one is a copy of the English)", len(docs))
	}
	out := t.TempDir()
	env := &lab.Env{Out: out, Quick: true, Command: "test"}
	if err := run(context.Background(), env, comps, "tiny.yml", config{languages: []string{"en", "de", "ja", "fr"}, minDocs: 20, speedSize: 2000}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "languages.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res results
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	byCode := map[string]*langResult{}
	for _, l := range res.Languages {
		byCode[l.Code] = l
	}
	if fr := byCode["fr"]; fr == nil || fr.Skipped == "" {
		t.Errorf("French (no description) is not skipped: %+v", fr)
	}
	de := byCode["de"]
	if de == nil || de.Own == nil || de.Default == nil {
		t.Fatalf("German: %+v", de)
	}
	if de.Own.StopShare == nil || *de.Own.StopShare > 0.02 || *de.Default.StopShare < 0.05 {
		t.Errorf("German stopword shares: default %v, own %v", *de.Default.StopShare, *de.Own.StopShare)
	}
	ja := byCode["ja"]
	if ja.Skipped != "" {
		t.Skipf("Japanese: %s", ja.Skipped) // built with -tags semitopic_noja
	}
	joined := strings.Join(ja.Own.Topics[0], " ") + " " + strings.Join(ja.Own.Topics[1], " ")
	if !strings.Contains(joined, "画像") || !strings.Contains(joined, "ゲーム") {
		t.Errorf("Japanese topics without the segmented words 画像 and ゲーム: %q", ja.Own.Topics)
	}
	if ja.Own.SVM < 0.9 || de.Own.TSNMF < 0.9 {
		t.Errorf("accuracy on two separable themes: ja SVM %.2f, de TS-NMF %.2f", ja.Own.SVM, de.Own.TSNMF)
	}
	md, err := os.ReadFile(filepath.Join(out, "languages.md"))
	if err != nil || !strings.Contains(string(md), "| de German | 39 (") || strings.Contains(string(md), "%!") {
		t.Errorf("report:\n%s", md)
	}
}

// A language the experiment does not know is refused, naming it.
func TestLanguagesUnknownCode(t *testing.T) {
	comps, err := parseDEP11("tiny.yml", strings.NewReader(tinyDEP11()))
	if err != nil {
		t.Fatal(err)
	}
	env := &lab.Env{Out: t.TempDir(), Quick: true, Command: "test"}
	err = run(context.Background(), env, comps, "tiny.yml", config{languages: []string{"de", "xx"}})
	if err == nil || !strings.Contains(err.Error(), "--datasets xx") {
		t.Errorf("unknown language: %v", err)
	}
}
