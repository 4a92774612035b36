// Command serverload measures the HTTP server on loopback: it fits (or
// loads) a model, serves it on 127.0.0.1 on a free port, then
//
//  1. sends -seq documents one per request, one after another on one
//     keep-alive connection, and the same documents in one request, and
//     reports both times, their ratio and the one-document requests/s;
//  2. runs concurrent clients posting documents to /v1/transform for a
//     bounded number of requests and time, and reports requests per second
//     and latency percentiles.
//
// The documents are the demo corpus's, or those of -corpus (read with
// -format and -subset) for a real model:
//
//	go run ./bench/serverload [-model M.semitopic] [-clients 50] [-requests 20000] [-duration 30s] [-docs 1] [-seq 400]
//	go run ./bench/serverload -reuters    # TS-NMF fitted on the Reuters training documents, test documents sent
package main
