package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// NewToken returns a random token of 128 bits (32 hexadecimal digits)
// from crypto/rand.
func NewToken() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("web: no random token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// IsLoopback reports whether the listening address addr (host:port)
// binds loopback only: localhost or a loopback IP. An empty host binds
// every interface.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	return loopbackHost(host)
}

func loopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// setSecurityHeaders sets the headers every answer carries: the page
// loads only its own script and style and talks only to its own origin,
// and no other site may frame it or read it.
func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	h.Set("Cross-Origin-Opener-Policy", "same-origin")
}

// check applies the security rules to r before any route: the Host
// header (DNS rebinding), the token on the API, and for a request that
// changes the state its origin and content type. It returns the status
// and message of the refusal, or 0.
func (s *Server) check(r *http.Request) (int, string) {
	if r.URL.RawQuery != "" && len(r.URL.RawQuery) > MaxQueryString {
		return http.StatusRequestURITooLong, fmt.Sprintf("query string of %d bytes, at most %d", len(r.URL.RawQuery), MaxQueryString)
	}
	if !s.hostAllowed(r) {
		return http.StatusForbidden, fmt.Sprintf("host %q refused: without a token the workbench answers only requests addressed to localhost, a loopback address or the address it listens on (open the address it printed)", r.Host)
	}
	if s.opts.Token != "" && strings.HasPrefix(r.URL.Path, "/api/") {
		got := r.Header.Get(TokenHeader)
		if got == "" {
			return http.StatusUnauthorized, "this workbench needs its token: open the address it printed (with ?token=), or send the token in the " + TokenHeader + " header"
		}
		if subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.Token)) != 1 {
			return http.StatusUnauthorized, "wrong token in the " + TokenHeader + " header: use the one the workbench printed with its address"
		}
	}
	if r.Method == http.MethodGet || r.Method == http.MethodHead || r.Method == http.MethodOptions {
		return 0, ""
	}
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if o == "null" || err != nil || !strings.EqualFold(u.Host, r.Host) {
			return http.StatusForbidden, fmt.Sprintf("request from the origin %q refused: the workbench takes changes only from its own page (%s)", o, r.Host)
		}
	}
	switch site := r.Header.Get("Sec-Fetch-Site"); site {
	case "", "same-origin", "none":
	default:
		return http.StatusForbidden, fmt.Sprintf("request from another site refused (Sec-Fetch-Site: %s): the workbench takes changes only from its own page", site)
	}
	if strings.HasPrefix(r.URL.Path, "/api/") {
		ct := r.Header.Get("Content-Type")
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			if ct == "" {
				ct = "none"
			}
			return http.StatusUnsupportedMediaType, fmt.Sprintf("the body must be JSON sent with Content-Type: application/json, not %s", ct)
		}
	}
	return 0, ""
}

// hostAllowed reports whether r's Host header names the workbench: a
// loopback name or address, the address the request came in on, or one
// of Options.Hosts. A request to another name is a page of another site
// whose name now resolves to this machine (DNS rebinding). With a token
// any name is accepted: such a page does not have the token.
func (s *Server) hostAllowed(r *http.Request) bool {
	if s.opts.Token != "" {
		return true
	}
	if r.Host == "" {
		return false
	}
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	host = strings.Trim(host, "[]")
	if loopbackHost(host) {
		return true
	}
	if la, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok {
		if lh, _, err := net.SplitHostPort(la.String()); err == nil {
			if ip, lip := net.ParseIP(host), net.ParseIP(lh); ip != nil && lip != nil && ip.Equal(lip) && !lip.IsUnspecified() {
				return true
			}
		}
	}
	for _, h := range s.opts.Hosts {
		if strings.EqualFold(strings.TrimSuffix(h, "."), strings.TrimSuffix(host, ".")) {
			return true
		}
	}
	return false
}
