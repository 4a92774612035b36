package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/server"
)

// fitDemo fits TS-NMF on the embedded demo corpus, supervised by the labels
// of its labeled documents: eight topics named after the demo's themes.
func fitDemo() *model.Fitted {
	d, err := demo.Load()
	if err != nil {
		log.Fatal(err)
	}
	f, err := model.Fit(context.Background(), model.Text(d.Corpus, nil), model.Options{Kind: model.KindTSNMF, Seed: 1, LabelsFromCorpus: true})
	if err != nil {
		log.Fatal(err)
	}
	return f
}

// Serve a fitted model and post two documents to /v1/transform: each comes
// back with its strongest topics and, the model being supervised, its
// labels. The second document has no word the model knows.
func Example() {
	s, err := server.New(fitDemo(), server.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()

	body := `{"documents": [
		{"id": "a", "text": "The astronaut watched the rocket reach orbit through a telescope."},
		{"id": "b", "text": "zzz qqq"}
	]}`
	resp, err := http.Post(ts.URL+"/v1/transform", "application/json", strings.NewReader(body))
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Documents       []server.DocumentResult
		Terms           int
		OutOfVocabulary int `json:"out_of_vocabulary"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Status)
	for _, doc := range out.Documents {
		top := "none"
		if len(doc.Top) > 0 {
			top = doc.Top[0].Topic
		}
		fmt.Printf("%s: strongest topic %s, labels %v, empty %t\n", doc.ID, top, doc.Labels, doc.Empty)
	}
	fmt.Printf("%d terms, %d out of vocabulary\n", out.Terms, out.OutOfVocabulary)
	// Output:
	// 200 OK
	// a: strongest topic space, labels [space], empty false
	// b: strongest topic none, labels [], empty true
	// 8 terms, 4 out of vocabulary
}

// New makes a Server, an http.Handler, for a fitted model; Options bound
// what one request may ask. Here GET /v1/topics lists the model's topics
// with their top three words.
func ExampleNew() {
	s, err := server.New(fitDemo(), server.Options{MaxDocuments: 100, MaxBodyBytes: 1 << 20})
	if err != nil {
		log.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()

	resp, err := http.Get(ts.URL + "/v1/topics?n=3")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct{ Topics []model.Topic }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		log.Fatal(err)
	}
	for _, t := range out.Topics {
		fmt.Print(t.Name, ":")
		for _, w := range t.Words {
			fmt.Print(" ", w.Word)
		}
		fmt.Println()
	}
	// Output:
	// computing: software algorithm server
	// cooking: recipe oven flour
	// finance: bank interest investor
	// football: goal striker referee
	// gardening: soil seed compost
	// medicine: patient doctor vaccine
	// music: guitar melody orchestra
	// space: rocket orbit astronaut
}

// Serve runs the server on a listener until its context is cancelled, then
// shuts down gracefully.
func ExampleServe() {
	s, err := server.New(fitDemo(), server.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.Serve(ctx, ln, s, nil, 5*time.Second) }()

	resp, err := http.Get("http://" + ln.Addr().String() + "/healthz")
	if err != nil {
		log.Fatal(err)
	}
	var health struct{ Status string }
	err = json.NewDecoder(resp.Body).Decode(&health)
	resp.Body.Close()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Status, health.Status)

	cancel()
	fmt.Println("stopped:", <-done)
	// Output:
	// 200 OK ok
	// stopped: <nil>
}
