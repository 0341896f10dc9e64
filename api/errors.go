package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
)

// ErrorKind says what went wrong in one request.
type ErrorKind int

// The kinds of *Error.
const (
	// KindInvalid: the call's arguments were rejected before anything was sent.
	KindInvalid ErrorKind = iota + 1
	// KindHTTP: the server answered a non-2xx status.
	KindHTTP
	// KindServer: the server answered 2xx with an error body ({"error":...} or {"type":"error",...}),
	// or a transaction response whose error field is not empty.
	KindServer
	// KindNotJSON: the body was not JSON.
	KindNotJSON
	// KindTooLarge: the body was over the client's size cap.
	KindTooLarge
	// KindDecode: the body was JSON but not the expected record (for example a malformed price).
	KindDecode
	// KindTimeout: the request or the wait for the answer timed out.
	KindTimeout
	// KindNetwork: the connection failed or dropped.
	KindNetwork
	// KindCanceled: the caller's context was canceled.
	KindCanceled
)

var kindNames = map[ErrorKind]string{
	KindInvalid: "invalid request", KindHTTP: "HTTP error", KindServer: "server error",
	KindNotJSON: "not JSON", KindTooLarge: "response too large", KindDecode: "bad response",
	KindTimeout: "timeout", KindNetwork: "network error", KindCanceled: "canceled",
}

// String names the kind.
func (k ErrorKind) String() string {
	if s, ok := kindNames[k]; ok {
		return s
	}
	return "error kind " + strconv.Itoa(int(k))
}

// Error is the one error type the client returns. It never carries key material.
type Error struct {
	Kind       ErrorKind
	Op         string        // what was attempted: "info fills", "exchange placeOrder"
	Status     int           // HTTP status, 0 when there was no answer
	Message    string        // the server's message, or what is wrong with the arguments
	RetryAfter time.Duration // from Retry-After on 429 and 503, 0 otherwise
	Err        error         // the underlying error, if any
	// ambiguous is set on /exchange failures after the request may have reached the exchange.
	ambiguous bool
}

// Error implements error: "exchange placeOrder: HTTP 429: too many requests (retry after 2s)".
// The text is one line with no control character in it (text.Clean): the server's part of it
// is outside text.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Op)
	b.WriteString(": ")
	switch {
	case e.Status != 0 && (e.Kind == KindHTTP || e.Kind == KindServer):
		fmt.Fprintf(&b, "HTTP %d", e.Status)
		if e.Kind == KindServer {
			b.WriteString(" with error body")
		}
	default:
		b.WriteString(e.Kind.String())
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	} else if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&b, " (retry after %s)", e.RetryAfter)
	}
	if e.ambiguous {
		b.WriteString(" (the request may have reached the exchange: look it up before resending)")
	}
	return text.Clean(b.String())
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Ambiguous reports whether an /exchange request may have reached the exchange although no clear
// answer came back (a timeout or a dropped connection after the request was written, a gateway
// error, an unreadable success body). The outcome is unknown: look the order up (by cloid) before
// sending it again. Always false for /info and for errors the server stated clearly.
func (e *Error) Ambiguous() bool { return e.ambiguous }

// Lost is Ambiguous under another name: the answer was lost, not necessarily the request.
func (e *Error) Lost() bool { return e.ambiguous }

// Unauthorized reports a 401 or 403 answer (authentication or signature refused).
func (e *Error) Unauthorized() bool {
	return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden
}

// RateLimited reports a 429 answer; RetryAfter says how long the server asked to wait.
func (e *Error) RateLimited() bool { return e.Status == http.StatusTooManyRequests }

// Temporary reports whether the same request may succeed later (rate limit, 5xx, timeout, network).
func (e *Error) Temporary() bool {
	switch e.Kind {
	case KindTimeout, KindNetwork:
		return true
	case KindHTTP:
		return e.Status == http.StatusTooManyRequests || e.Status >= 500
	}
	return false
}

// IsAmbiguous reports whether err is an *Error whose Ambiguous is true.
func IsAmbiguous(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Ambiguous()
}

// AsError returns err as an *Error if it is one (or wraps one).
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}

func invalid(op, format string, args ...any) *Error {
	return &Error{Kind: KindInvalid, Op: op, Message: fmt.Sprintf(format, args...)}
}

// serverMessage extracts the error message from {"error":...} or {"type":"error","message":...};
// ok is false when the body is not such an error.
func serverMessage(body []byte) (msg string, ok bool) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || body[0] != '{' {
		return "", false
	}
	var shape struct {
		Error   json.RawMessage `json:"error"`
		Type    string          `json:"type"`
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(body, &shape) != nil {
		return "", false
	}
	if shape.Type == "error" {
		return rawText(shape.Message, "error"), true
	}
	if m := rawText(shape.Error, ""); m != "" && m != "false" {
		return m, true
	}
	return "", false
}

// rawText renders a JSON value as a message: strings unquoted, null/absent as def, cleaned
// (text.Clean) because a server chose it.
func rawText(raw json.RawMessage, def string) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return def
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return text.Clean(truncate(s, 300))
	}
	return text.Clean(truncate(string(raw), 300))
}

// bodySnippet is a short, printable excerpt of a body for messages.
func bodySnippet(body []byte) string {
	s := strings.TrimSpace(string(body))
	if s == "" {
		return "empty body"
	}
	return text.Clean(truncate(s, 200))
}

// parseRetryAfter reads Retry-After as seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.ParseFloat(v, 64); err == nil && n > 0 && n < 1e6 {
		return time.Duration(n * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
