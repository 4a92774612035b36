// Package web serves a workbench Session over HTTP: a JSON API in which
// every action of the person is an endpoint, and the single-page
// application that uses it (HTML, JavaScript and CSS embedded in the
// binary; the page loads nothing from elsewhere).
//
//	GET  /                          the page (/app.js, /app.css)
//	GET  /api/status                where the session stands (workbench.Status)
//	GET  /api/events                the same as Server-Sent Events, one "status" event per change
//	GET  /api/wait?version=&timeout= waits until the version is fitted: its round's summary
//	GET  /api/state                 the supervision: anchors, label counts, stopwords, removed documents
//	GET  /api/topics?n=             the current round's topics, n top words each
//	GET  /api/topics/{name}/docs?n= a topic's top documents, its words highlighted
//	GET  /api/search?q=&n=          documents holding a word or phrase
//	GET  /api/docs/{id}             one document: text, mixture, labels, prediction
//	GET  /api/vocab?prefix=&n=      vocabulary terms with document frequencies
//	GET  /api/rounds                the rounds, oldest first
//	GET  /api/rounds/{n}/diff       what round n changed (0: the current round)
//	GET  /api/suggest               what to do next
//	POST /api/edit                  {"base": version, "edit": {"op": ..., ...}} → {"version": v}
//	POST /api/refit                 {"base": version}
//	POST /api/undo, /api/redo       {"base": version}
//	GET  /api/export/{what}         model, anchors, labels, report or command, as a download
//
// Errors are JSON, {"error": "..."}, in plain words naming the field,
// parameter, topic, word or document at fault. An action based on a
// version another client has moved past is answered 409 Conflict with the
// current version and the changes missed. No answer holds null: a list
// with nothing in it is [] or left out.
//
// Security: with a token (Options.Token) every API request must carry it
// in the X-Semitopic-Token header (the page reads it once from ?token=);
// the Host header must name a loopback address or the address the request
// came in on (DNS rebinding) unless a token is set; and a POST must be
// JSON from the page's own origin (Origin and Sec-Fetch-Site checked).
// Request bodies, query strings and n are bounded.
package web
