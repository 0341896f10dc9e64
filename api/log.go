package api

import (
	"context"
	"log/slog"
	"regexp"
	"strconv"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
)

// DebugBodyLimit caps the request and response bodies written to a Debug-level log record.
const DebugBodyLimit = 2 << 10

// WithLogger sets the structured logger every request is written to. Without it the client logs
// to slog.Default() as it is at the time of each call, so a program's slog.SetDefault takes
// effect even on clients made earlier. While the program has never called slog.SetDefault, the
// client logs nothing: the standard library's initial default prints to stderr, which would
// scatter log lines over a terminal screen or a script's output. A nil logger means the same as
// no option.
//
// Every /info and /exchange attempt gives one record: "api request" at Info when it succeeded,
// at Warn when it failed, with path, method or action, attempt, status, latency, request and
// response bytes, and for failures the error kind and message. /exchange records add the tx
// type, nonce, expiresAfter, the orders' cloids or the cancels' oids and cloids, and the
// signature shortened to its first 6 hex digits and its length. At Debug, one more record,
// "api body", holds both bodies cut to DebugBodyLimit bytes with every signature shortened the
// same way. Keys are never logged: the client does not hold them, only its Signer does.
func WithLogger(l *slog.Logger) Option { return func(c *Client) { c.logger = l } }

// initialDefaultHandler is the standard library's own default handler, as it was before the
// program could call slog.SetDefault.
var initialDefaultHandler = slog.Default().Handler()

// log is the logger for one call, nil when nothing is to be logged.
func (c *Client) log() *slog.Logger {
	if c.logger != nil {
		return c.logger
	}
	l := slog.Default()
	if l.Handler() == initialDefaultHandler {
		return nil
	}
	return l
}

// call describes one request for the log.
type call struct {
	path    string      // "/info" or "/exchange"
	name    string      // the /info method or the /exchange action
	attempt int         // 1 for the first try
	attrs   []slog.Attr // action details (nonce, cloids, redacted signature)
}

// logCall writes the record of one finished attempt. reply is the body read (nil when none came).
func (c *Client) logCall(ctx context.Context, cl *call, start time.Time, req, reply []byte, status int, e *Error) {
	l := c.log()
	if l == nil {
		return
	}
	level := slog.LevelInfo
	if e != nil {
		level = slog.LevelWarn
		if e.Status != 0 {
			status = e.Status
		}
	}
	if !l.Enabled(ctx, level) && !l.Enabled(ctx, slog.LevelDebug) {
		return
	}
	attrs := make([]slog.Attr, 0, 10+len(cl.attrs))
	attrs = append(attrs,
		slog.String("path", cl.path), slog.String(callKey(cl.path), cl.name), slog.Int("attempt", cl.attempt),
		slog.Int("status", status), slog.Duration("latency", time.Since(start)),
		slog.Int("request_bytes", len(req)), slog.Int("response_bytes", len(reply)))
	attrs = append(attrs, cl.attrs...)
	if e != nil {
		attrs = append(attrs, slog.String("error_kind", e.Kind.String()), slog.String("error", redactSignatures(e.Error())))
		if e.ambiguous {
			attrs = append(attrs, slog.Bool("ambiguous", true))
		}
	}
	l.LogAttrs(ctx, level, "api request", attrs...)
	if l.Enabled(ctx, slog.LevelDebug) {
		l.LogAttrs(ctx, slog.LevelDebug, "api body",
			slog.String("path", cl.path), slog.String(callKey(cl.path), cl.name), slog.Int("attempt", cl.attempt),
			slog.String("request", debugBody(req)), slog.String("response", debugBody(reply)))
	}
}

func callKey(path string) string {
	if path == "/exchange" {
		return "action"
	}
	return "method"
}

// actionAttrs are the log attributes of one signed action: never the full signature.
func actionAttrs(info ActionInfo, data ActionData, sig string) []slog.Attr {
	nonce, expires := nonceAndExpiry(data)
	attrs := []slog.Attr{
		slog.Int("tx_type", int(info.TxType)), slog.Uint64("nonce", nonce),
		slog.String("signature", RedactSignature(sig)),
	}
	if expires != 0 {
		attrs = append(attrs, slog.Uint64("expires_after", expires))
	}
	switch d := data.(type) {
	case *PlaceOrderData:
		cloids := make([]string, len(d.Orders))
		for i, o := range d.Orders {
			cloids[i] = o.Cloid
		}
		attrs = append(attrs, slog.Int("orders", len(d.Orders)), slog.Any("cloids", cloids))
	case *CancelByOidData:
		oids := make([]string, len(d.Cancels))
		for i, x := range d.Cancels {
			oids[i] = strconv.FormatUint(uint64(x.Oid), 10)
		}
		attrs = append(attrs, slog.Int("cancels", len(d.Cancels)), slog.Any("oids", oids))
	case *CancelByCloidData:
		cloids := make([]string, len(d.Cancels))
		for i, x := range d.Cancels {
			cloids[i] = x.Cloid
		}
		attrs = append(attrs, slog.Int("cancels", len(d.Cancels)), slog.Any("cloids", cloids))
	case *CancelByInstrumentData:
		attrs = append(attrs, slog.Int64("instrument_id", int64(d.InstrumentID)))
	}
	return attrs
}

// RedactSignature shortens a signature for a log: its first 6 hex digits and its length, as in
// "0x1a2b3c…(132 chars)". Anything shorter than 8 characters is shown only by its length.
func RedactSignature(sig string) string {
	n := len(sig)
	if n < 8 {
		return "…(" + strconv.Itoa(n) + " chars)"
	}
	return sig[:8] + "…(" + strconv.Itoa(n) + " chars)"
}

// signatureField matches a JSON "signature" member with a string value; longHex matches a run of
// 100 or more hex digits (a bare signature is 130).
var (
	signatureField = regexp.MustCompile(`"signature"\s*:\s*"([^"\\]*)"`)
	longHex        = regexp.MustCompile(`(0[xX])?[0-9a-fA-F]{100,}`)
)

// redactSignatures shortens every signature in a text: the value of each JSON "signature" member
// and any bare run of 100 hex digits or more.
func redactSignatures(s string) string {
	s = signatureField.ReplaceAllStringFunc(s, func(m string) string {
		sub := signatureField.FindStringSubmatch(m)
		return `"signature":"` + RedactSignature(sub[1]) + `"`
	})
	return longHex.ReplaceAllStringFunc(s, RedactSignature)
}

// debugBody is a body as written to a Debug record: cut to DebugBodyLimit, signatures shortened.
// Redaction runs before the cut (over a window a little longer than the limit, so a signature that
// straddles the limit is still whole when it is shortened), and a partial signature or hex run
// left at the very end by the cut is shortened too.
func debugBody(b []byte) string {
	if b == nil {
		return ""
	}
	s := string(b[:min(len(b), DebugBodyLimit+512)])
	s = redactSignatures(s)
	if len(s) <= DebugBodyLimit && len(b) <= DebugBodyLimit+512 {
		return text.Clean(s)
	}
	s = s[:min(len(s), DebugBodyLimit)]
	s = trailingSignature.ReplaceAllString(s, `"signature":"…"`)
	s = trailingHex.ReplaceAllStringFunc(s, RedactSignature)
	return text.Clean(s) + "…(" + strconv.Itoa(len(b)) + " bytes)"
}

// trailingSignature and trailingHex find what a cut may leave of a signature at the end of a text.
var (
	trailingSignature = regexp.MustCompile(`"signature"\s*:\s*"[^"\\]*$`)
	trailingHex       = regexp.MustCompile(`(0[xX])?[0-9a-fA-F]{20,}$`)
)
