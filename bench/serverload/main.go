package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"net"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/server"
	"github.com/semitopic/semitopic/vectorize"
)

func main() {
	modelPath := flag.String("model", "", "saved model (default: TS-NMF fitted on the demo corpus)")
	clients := flag.Int("clients", 50, "concurrent clients")
	requests := flag.Int("requests", 20000, "stop after this many requests")
	duration := flag.Duration("duration", 30*time.Second, "stop after this long")
	docsPer := flag.Int("docs", 1, "documents per request")
	seq := flag.Int("seq", 400, "documents sent one per request and then in one request (0: skip)")
	format := flag.String("format", "", "format of -corpus")
	corpusPath := flag.String("corpus", "", "documents to send (default: the demo corpus)")
	subset := flag.String("subset", "", "train or test: the documents of -corpus to send")
	reuters := flag.Bool("reuters", false, "fit a model (-kind) on the shared Reuters training documents and send its test documents")
	kind := flag.String("kind", "tsnmf", "with -reuters: the kind to fit (tsnmf with the tsnmf preset; others with their fit command's default preset)")
	flag.Parse()

	ctx := context.Background()
	d, err := demo.Load()
	if err != nil {
		log.Fatal(err)
	}
	docs := d.Corpus.Docs
	if *reuters {
		p, err := datadir.File("reuters21578-nltk-apte/reuters.tar.gz")
		if err != nil {
			log.Fatal(err)
		}
		*format, *corpusPath, *subset = "reuters-nltk", p, "test"
	}
	if *corpusPath != "" {
		rd, err := corpus.NewReader(*format)
		if err != nil {
			log.Fatal(err)
		}
		c, err := rd.Read(ctx, *corpusPath)
		if err != nil {
			log.Fatal(err)
		}
		all := c
		if *subset != "" {
			sp, err := corpus.ParseSplit(*subset)
			if err != nil {
				log.Fatal(err)
			}
			c = c.Subset(sp)
		}
		docs = c.Docs
		if *reuters && *modelPath == "" {
			// The paper's pipeline, a preset named like the kind.
			pl, err := vectorize.PipelinePreset(*kind)
			if err != nil {
				log.Fatalf("-kind %s: %v", *kind, err)
			}
			o := model.Options{Kind: *kind, Seed: 1}
			if *kind == model.KindLDA {
				o.K = 20
			}
			t0 := time.Now()
			o.LabelsFromCorpus = *kind != model.KindLDA
			f, err := model.Fit(ctx, model.Text(all.Subset(corpus.SplitTrain), &pl), o)
			if err != nil {
				log.Fatal(err)
			}
			fmt.Printf("fitted %s on the Reuters training documents in %v\n", *kind, time.Since(t0).Round(time.Millisecond))
			fitted = f
		}
	}
	f := fitted
	if *modelPath != "" {
		if f, err = model.LoadFile(*modelPath); err != nil {
			log.Fatal(err)
		}
	} else if f == nil {
		if f, err = model.Fit(ctx, model.Text(d.Corpus, nil), model.Options{Kind: model.KindTSNMF, Seed: 1, LabelsFromCorpus: true}); err != nil {
			log.Fatal(err)
		}
	}
	s, err := server.New(f, server.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- server.Serve(sctx, ln, s, nil, 5*time.Second) }()
	url := "http://" + ln.Addr().String() + "/v1/transform"
	fmt.Printf("model %s (%d topics, %d terms), %d documents to send\n", f.Model.Kind(), f.Model.NumTopics(), len(f.Vocab), len(docs))
	if *seq > 0 {
		sequential(url, docs[:min(*seq, len(docs))])
	}

	// Request bodies for the load test.
	var bodies [][]byte
	for i := 0; i+*docsPer <= len(docs); i += *docsPer {
		bodies = append(bodies, body(docs[i:i+*docsPer]))
	}
	tr := &http.Transport{MaxIdleConns: *clients, MaxIdleConnsPerHost: *clients}
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	var sent, failed atomic.Int64
	lat := make([][]time.Duration, *clients)
	deadline := time.Now().Add(*duration)
	start := time.Now()
	var wg sync.WaitGroup
	for c := 0; c < *clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for {
				n := sent.Add(1)
				if n > int64(*requests) || time.Now().After(deadline) {
					return
				}
				body := bodies[int(n)%len(bodies)]
				t0 := time.Now()
				resp, err := client.Post(url, "application/json", bytes.NewReader(body))
				if err != nil {
					failed.Add(1)
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					failed.Add(1)
					continue
				}
				lat[c] = append(lat[c], time.Since(t0))
			}
		}(c)
	}
	wg.Wait()
	elapsed := time.Since(start)
	stop()
	if err := <-done; err != nil {
		log.Fatal(err)
	}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	if len(all) == 0 {
		log.Fatal("no successful request")
	}
	pct := func(p float64) time.Duration { return all[min(len(all)-1, int(p*float64(len(all))))] }
	fmt.Printf("load: %d clients, %d document(s) per request, loopback\n", *clients, *docsPer)
	fmt.Printf("%d requests in %v (%d failed): %.0f requests/s\n", len(all), elapsed.Round(time.Millisecond), failed.Load(), float64(len(all))/elapsed.Seconds())
	fmt.Printf("latency p50 %v, p90 %v, p99 %v, max %v\n", pct(0.5).Round(time.Microsecond), pct(0.9).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), all[len(all)-1].Round(time.Microsecond))
}

// fitted is the model fitted on a real corpus, when -reuters asks for one.
var fitted *model.Fitted

// body is a transform request for docs.
func body(docs []corpus.Document) []byte {
	var ds []map[string]string
	for _, doc := range docs {
		ds = append(ds, map[string]string{"id": doc.ID, "text": doc.Text})
	}
	b, _ := json.Marshal(map[string]any{"documents": ds})
	return b
}

// sequential sends docs one per request, one request after another on one
// keep-alive connection, then all of them in one request (best of three
// each), and prints both times and their ratio.
func sequential(url string, docs []corpus.Document) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1}, Timeout: time.Minute}
	post := func(b []byte) {
		resp, err := client.Post(url, "application/json", bytes.NewReader(b))
		if err != nil {
			log.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			log.Fatalf("status %s", resp.Status)
		}
	}
	one := make([][]byte, len(docs))
	for i := range docs {
		one[i] = body(docs[i : i+1])
	}
	batch := body(docs)
	post(one[0]) // open the connection
	best := func(run func()) time.Duration {
		b := time.Duration(math.MaxInt64)
		for r := 0; r < 3; r++ {
			t0 := time.Now()
			run()
			b = min(b, time.Since(t0))
		}
		return b
	}
	tSeq := best(func() {
		for _, b := range one {
			post(b)
		}
	})
	tBatch := best(func() { post(batch) })
	n := float64(len(docs))
	fmt.Printf("sequential: %d one-document requests in %v (%.0f requests/s, %.3f ms each); one %d-document request in %v (%.3f ms per document); ratio %.2f×\n",
		len(docs), tSeq.Round(time.Millisecond), n/tSeq.Seconds(), 1000*tSeq.Seconds()/n,
		len(docs), tBatch.Round(time.Millisecond), 1000*tBatch.Seconds()/n, tSeq.Seconds()/tBatch.Seconds())
}
