// Command serverload measures the HTTP server under load on loopback: it
// fits (or loads) a model, serves it on 127.0.0.1 on a free port, and runs
// concurrent clients posting documents to /v1/transform for a bounded
// number of requests and time, then reports requests per second and
// latency percentiles.
//
//	go run ./bench/serverload [-model M.semitopic] [-clients 50] [-requests 20000] [-duration 30s] [-docs 1]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/semitopic/semitopic/demo"
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
	flag.Parse()

	ctx := context.Background()
	d, err := demo.Load()
	if err != nil {
		log.Fatal(err)
	}
	var f *model.Fitted
	if *modelPath != "" {
		if f, err = model.LoadFile(*modelPath); err != nil {
			log.Fatal(err)
		}
	} else if f, err = model.FitCorpus(ctx, d.Corpus, vectorize.DefaultPipeline(), true, model.Supervision{}, model.Options{Kind: model.KindTSNMF, Seed: 1}, nil); err != nil {
		log.Fatal(err)
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

	// Request bodies: documents of the demo corpus.
	var bodies [][]byte
	for i := 0; i+*docsPer <= len(d.Corpus.Docs); i += *docsPer {
		var docs []map[string]string
		for _, doc := range d.Corpus.Docs[i : i+*docsPer] {
			docs = append(docs, map[string]string{"id": doc.ID, "text": doc.Text})
		}
		b, _ := json.Marshal(map[string]any{"documents": docs})
		bodies = append(bodies, b)
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
	fmt.Printf("model %s (%d topics), %d clients, %d document(s) per request, loopback\n", f.Model.Kind(), f.Model.NumTopics(), *clients, *docsPer)
	fmt.Printf("%d requests in %v (%d failed): %.0f requests/s\n", len(all), elapsed.Round(time.Millisecond), failed.Load(), float64(len(all))/elapsed.Seconds())
	fmt.Printf("latency p50 %v, p90 %v, p99 %v, max %v\n", pct(0.5).Round(time.Microsecond), pct(0.9).Round(time.Microsecond), pct(0.99).Round(time.Microsecond), all[len(all)-1].Round(time.Microsecond))
}
