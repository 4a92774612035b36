package web

import (
	"bytes"
	"fmt"
	"net/http"
	"time"
)

// Event streams end after maxStream (the client reconnects) and send a
// comment after heartbeat of silence, so that a proxy or a sleeping
// laptop does not keep a dead stream.
const (
	maxStream = 10 * time.Minute
	heartbeat = 15 * time.Second
)

// events streams the status as Server-Sent Events: a "status" event with
// the status's JSON at once and at each change, looked for every
// Options.EventInterval.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	if !query(w, r) {
		return
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	tick := time.NewTicker(s.opts.EventInterval)
	defer tick.Stop()
	end := time.NewTimer(maxStream)
	defer end.Stop()
	var last []byte
	quiet := time.Now()
	for {
		b, err := encode(s.sess.Status())
		if err != nil {
			return
		}
		var msg []byte
		switch {
		case !bytes.Equal(b, last):
			msg = fmt.Appendf(nil, "event: status\ndata: %s\n\n", b)
			last = b
		case time.Since(quiet) >= heartbeat:
			msg = []byte(": still here\n\n")
		}
		if msg != nil {
			_ = rc.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if _, err := w.Write(msg); err != nil {
				return
			}
			if err := rc.Flush(); err != nil {
				return
			}
			quiet = time.Now()
		}
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		case <-end.C:
			return
		case <-tick.C:
		}
	}
}
