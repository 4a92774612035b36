package report

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
)

// Empty topics (no word, or no share of the corpus) are left out of the
// size chart, the cards and the heatmap, and one line counts them.
func TestEmptyTopicsLeftOut(t *testing.T) {
	const k, n = 6, 12
	f := stubFitted(k, n, 0, false)
	s := f.Model.(*stub)
	for i := range s.topics {
		s.topics[i].Weight = 0.25
	}
	s.topics[1].Weight = 0  // no share
	s.topics[4].Words = nil // no word
	s.topics[5].Weight = 0  // no share
	s.topics[5].Words = nil // and no word
	for _, i := range []int{1, 4, 5} {
		s.topics[i].Empty = true // as model.Topics marks them
	}
	s.topics[0].Name = "first" // a name no other contains
	docs := make([]corpus.Document, n)
	for i := range docs {
		docs[i] = corpus.Document{ID: fmt.Sprintf("d%d", i), Labels: []string{"a"}}
	}
	html := render(t, f, &Data{Docs: docs, X: oneTerm(t, n)})
	if want := "3 empty topics (no word, or no share of the training corpus), left out of the charts and the list: topic-2, topic-5, topic-6."; !strings.Contains(html, want) {
		t.Errorf("report lacks %q", want)
	}
	if !strings.Contains(html, "6 topics (3 empty) over 2 terms") {
		t.Errorf("the subtitle does not say how many topics are empty: %s", regexp.MustCompile(`<p>.*topics over.*</p>`).FindString(html))
	}
	if strings.Contains(html, "no words") {
		t.Error(`a "no words" card`)
	}
	cards := regexp.MustCompile(`<h3 title="([^"]*)">`).FindAllStringSubmatch(html, -1)
	var names []string
	for _, c := range cards {
		names = append(names, c[1])
	}
	if strings.Join(names, ",") != "first,topic-3,topic-4" {
		t.Errorf("cards %v, want first, topic-3, topic-4", names)
	}
	// The size chart and the heatmap name the three topics only.
	for _, sec := range []string{"<h2>Topic sizes</h2>", "<h2>Documents and topics</h2>"} {
		i := strings.Index(html, sec)
		if i < 0 {
			t.Fatalf("no %s", sec)
		}
		svg := html[i : i+strings.Index(html[i:], "</svg>")]
		for _, name := range []string{"topic-2", "topic-5", "topic-6"} {
			if strings.Contains(svg, ">"+name+"<") {
				t.Errorf("%s shows the empty %s", sec, name)
			}
		}
		for _, name := range []string{"first", "topic-3"} {
			if !strings.Contains(svg, ">"+name+"<") {
				t.Errorf("%s lacks %s", sec, name)
			}
		}
	}
	// No empty topic: no such line.
	if html := render(t, stubFitted(3, 4, 0, false), nil); strings.Contains(html, "empty topic") {
		t.Error("an empty-topics line without empty topics")
	}
}

// A long topic name wraps within its card, with its full text in the
// title, and is cut in the charts.
func TestLongTopicName(t *testing.T) {
	long := "a-topic-name-that-goes-on-and-on-" + strings.Repeat("x", 60)
	f := stubFitted(3, 6, 0, false)
	s := f.Model.(*stub)
	for i := range s.topics {
		s.topics[i].Weight = 1.0 / 3
	}
	s.topics[1].Name = long
	html := render(t, f, nil)
	if !strings.Contains(html, `<h3 title="`+long+`">`+long) {
		t.Error("the card does not carry the full name in its title")
	}
	if !regexp.MustCompile(`\.topic h3 \{[^}]*overflow-wrap: anywhere`).MatchString(html) {
		t.Error("a long name does not wrap in its card")
	}
	i := strings.Index(html, "<h2>Topic sizes</h2>")
	svg := html[i : i+strings.Index(html[i:], "</svg>")]
	if strings.Contains(svg, long) || !strings.Contains(svg, clip(long, chartLabel)) {
		t.Error("the size chart does not cut the long name")
	}
}

// The sentence on the documents' place in the fit is shown with the
// figures, as a warning when they overstate.
func TestTrainingSentence(t *testing.T) {
	f := stubFitted(3, 4, 0, false)
	docs := make([]corpus.Document, 4)
	for i := range docs {
		docs[i] = corpus.Document{ID: fmt.Sprintf("d%d", i), Labels: []string{"a"}}
	}
	html := render(t, f, &Data{Docs: docs, X: oneTerm(t, 4), Training: "These are training documents.", Overstated: true})
	if !strings.Contains(html, `<p class="warn">These are training documents.</p>`) {
		t.Error("no warning that the documents are training documents")
	}
	html = render(t, f, &Data{Docs: docs, X: oneTerm(t, 4), Training: "None of these documents was in the fit."})
	if !strings.Contains(html, `<p class="muted">None of these documents was in the fit.</p>`) {
		t.Error("no sentence that the documents were not in the fit")
	}
}
