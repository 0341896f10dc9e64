package sim

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	pathpkg "path"
	"strings"
)

// maxBody bounds a request body.
const maxBody = 1 << 20

// httpError is a failure answered as {"error": msg} with an HTTP status.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func badRequest(format string, args ...any) *httpError {
	return &httpError{status: http.StatusBadRequest, msg: fmt.Sprintf(format, args...)}
}

// ServeHTTP implements http.Handler: POST /exchange and POST /info, with or without a trailing
// slash, the loopback-only POST /faucet, and the stream (WebSocket) on GET /ws/. Every failure is
// {"error": "..."} with a 4xx status (5xx only from injected faults).
func (s *Sim) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimSuffix(pathpkg.Clean("/"+r.URL.Path), "/")
	if path == "/ws" {
		s.serveWS(w, r)
		return
	}
	if path == "/faucet" {
		s.faucet(w, r)
		return
	}
	if path == "/control" {
		s.marketControl(w, r)
		return
	}
	if path != "/exchange" && path != "/info" {
		writeJSON(w, http.StatusNotFound, errorBody{fmt.Sprintf("no such path %s: use POST /exchange or POST /info", r.URL.Path)})
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeJSON(w, http.StatusMethodNotAllowed, errorBody{"use POST with a JSON body"})
		return
	}
	if !isJSON(r.Header.Get("Content-Type")) {
		writeJSON(w, http.StatusUnsupportedMediaType, errorBody{"send the body with Content-Type: application/json"})
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		writeJSON(w, http.StatusBadRequest, errorBody{"could not read the request body: " + err.Error()})
		return
	}
	if len(body) > maxBody {
		writeJSON(w, http.StatusRequestEntityTooLarge, errorBody{fmt.Sprintf("request body is over %d bytes", maxBody)})
		return
	}
	fault := s.faults.pick()
	if fault.before(w, r) {
		return
	}
	var status int
	var out any
	if path == "/exchange" {
		status, out = s.exchange(body)
		defer s.publish(false)
	} else {
		status, out = s.info(body)
	}
	fault.after()
	writeJSON(w, status, out)
}

type errorBody struct {
	Error string `json:"error"`
}

// fail turns an error into a status and an error body.
func fail(err error) (int, any) {
	msg := trunc(err.Error(), maxErrorLen) // a message never carries a long value back
	var he *httpError
	if errors.As(err, &he) {
		return he.status, errorBody{msg}
	}
	return http.StatusBadRequest, errorBody{msg}
}

// maxErrorLen bounds an error message.
const maxErrorLen = 600

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status = http.StatusInternalServerError
		b = []byte(`{"error":"could not encode the response"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// isJSON reports whether a Content-Type header names JSON (parameters such as charset allowed).
// A web page can post a "simple" cross-origin request only as text/plain, form data or
// multipart, so insisting on JSON keeps a browser tab from acting on a local simulator.
func isJSON(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == "application/json"
}
