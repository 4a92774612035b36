// Package server serves a fitted model over HTTP: a JSON API to describe
// the model and its topics and to transform (and, for supervised models,
// label) documents, and a small web page to browse the topics and try a
// document. The model is read-only, so requests are served concurrently.
//
//	GET  /healthz        {"status": "ok"}
//	GET  /v1/model       kind, number of topics, labels, vocabulary size, fit info
//	GET  /v1/topics      topics with their top words (?n=10)
//	POST /v1/transform   {"documents": [{"id": "a", "text": "…"}]} or {"text": "…"}
//	                     → {"documents": [{"id", "topics": {name: weight}, "top": [...], "labels": [...]}]}
//	GET  /               the web page
package server
