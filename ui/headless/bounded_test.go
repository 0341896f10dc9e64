package headless

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHostileAnswersOneLineError (issue #16): every read command, against a server answering
// every /info request with an oversized list (380,000 records), a 1 MB deep nesting, a number
// bomb or an endless body, exits non-zero with one line on stderr naming the problem, and prints
// nothing on stdout. Guards the limits reaching the headless commands (api.CheckAnswer) and the
// exit status of a refused answer.
func TestHostileAnswersOneLineError(t *testing.T) {
	t.Parallel() // its own simulator and journal
	h := newHarness(t)
	bodies := []struct {
		name, say string
		write     func(io.Writer)
	}{
		{"oversized", "entries in one list", func(w io.Writer) { writeRecords(w, 380000) }},
		{"deep", "nested more than 32 deep", func(w io.Writer) { _, _ = io.WriteString(w, strings.Repeat("[", 1<<20)) }},
		{"number bomb", "exponent beyond", func(w io.Writer) { _, _ = io.WriteString(w, `[{"symbol":"X","mark_price":"1e999999999"}]`) }},
		{"endless", "entries in one list", func(w io.Writer) { writeRecords(w, -1) }},
	}
	for _, b := range bodies {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/info" {
				h.sim.ServeHTTP(w, r)
				return
			}
			b.write(w)
		}))
		for _, cmd := range []string{"account", "positions", "orders", "fills", "history", "tickers", "instruments", "collateral"} {
			var out, errb bytes.Buffer
			code := Run(context.Background(), []string{cmd, "--url", srv.URL},
				Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return h.env[k] }})
			lines := strings.Split(strings.TrimSuffix(errb.String(), "\n"), "\n")
			if code == ExitOK || len(lines) != 1 || !strings.Contains(lines[0], b.say) || out.Len() != 0 {
				t.Errorf("%s against %s: exit %d, stdout %d bytes, stderr %q; want one line saying %q", cmd, b.name, code, out.Len(), errb.String(), b.say)
			}
		}
		srv.Close()
	}
}

// TestBadRowDroppedHeadless: one ticker with an empty price costs only that row: tickers exits
// 0, prints the others, and says on stderr in one line that a bad row was dropped.
func TestBadRowDroppedHeadless(t *testing.T) {
	h := newHarness(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if bytes.Contains(body, []byte(`"ticker"`)) {
			_, _ = io.WriteString(w, `[{"symbol":"AAA-PERP","mark_price":"1"},{"symbol":"BBB-PERP","mark_price":""},{"symbol":"CCC-PERP","mark_price":"3"}]`)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		h.sim.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	var out, errb bytes.Buffer
	code := Run(context.Background(), []string{"tickers", "--url", srv.URL}, Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return h.env[k] }})
	if code != ExitOK || !strings.Contains(out.String(), "AAA-PERP") || !strings.Contains(out.String(), "CCC-PERP") || strings.Contains(out.String(), "BBB-PERP") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr: %s", code, out.String(), errb.String())
	}
	if !strings.Contains(errb.String(), "warning: 1 bad row dropped, the first: info ticker: row 1") || strings.Count(errb.String(), "\n") != 1 {
		t.Errorf("stderr %q, want one line about the dropped row", errb.String())
	}
}

// writeRecords writes a list of n small ticker records (n < 0: without end) until the reader
// hangs up.
func writeRecords(w io.Writer, n int) {
	if _, err := io.WriteString(w, "["); err != nil {
		return
	}
	var b []byte
	for i := 0; n < 0 || i < n; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, `{"symbol":"X%d","mark_price":"%d"}`, i, i)
		if len(b) > 32<<10 {
			if _, err := w.Write(b); err != nil {
				return
			}
			b = b[:0]
		}
	}
	_, _ = w.Write(append(b, ']'))
}
