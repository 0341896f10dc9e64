package sim

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tradedesk/tradedesk/api"
)

func TestParseFaults(t *testing.T) {
	t.Parallel()
	f, err := ParseFaults("0.2")
	if err != nil || f.ServerError != 0.05 || f.Timeout != 0.05 || f.Garbage != 0.05 || f.Lost != 0.05 {
		t.Errorf("0.2: %+v %v", f, err)
	}
	f, err = ParseFaults("5xx=0.1, timeout=0.05,garbage=0.01,lost=0.02,delay=2s")
	if err != nil || f != (Faults{ServerError: 0.1, Timeout: 0.05, Garbage: 0.01, Lost: 0.02, Delay: 2 * time.Second}) {
		t.Errorf("pairs: %+v %v", f, err)
	}
	if f, err := ParseFaults(""); err != nil || f != (Faults{}) {
		t.Errorf("empty: %+v %v", f, err)
	}
	for spec, want := range map[string]string{
		"foo=0.1":           `fault kind "foo"`,
		"5xx=2":             "want between 0 and 1",
		"5xx=0.6,lost=0.6":  "add up to",
		"delay=abc":         "want a duration",
		"timeout":           "want kind=share",
		"garbage=lots":      "want a share between 0 and 1",
		"5xx=0.1,delay=-1s": "positive duration",
	} {
		if _, err := ParseFaults(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", spec, err, want)
		}
	}
}

func apiKind(err error) api.ErrorKind {
	var e *api.Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return -1
}

func TestFaultServerError(t *testing.T) {
	t.Parallel()
	e := quietEnv(t, WithFaults(Faults{ServerError: 1}))
	code, body := e.postRaw(t, "/info", `{"method":"mids","params":{"symbol":"all"}}`)
	if code < 500 || !strings.Contains(body, "simulated server fault") {
		t.Errorf("%d %s", code, body)
	}
	_, err := e.client("alice").PlaceOrders(ctx(), []api.OrderWire{limit(1, api.SideBuy, "97000", "0.1")})
	if apiKind(err) != api.KindHTTP {
		t.Errorf("client error %v", err)
	}
	if n := len(e.sim.eng.orders); n != 0 {
		t.Errorf("a 5xx fault acted: %d orders", n)
	}
}

func TestFaultTimeout(t *testing.T) {
	t.Parallel()
	// A client with a short timeout gives up long before the stall ends: the error is its
	// timeout, not the 504 the stall answers with after its minute (the server stops stalling
	// when the client goes).
	e := quietEnv(t, WithFaults(Faults{Timeout: 1, Delay: time.Minute}))
	s, _ := api.SignerFromHex(keyHex("alice"))
	c := api.New(e.srv.URL, api.WithSigner(s), api.WithClock(e.clock.Now), api.WithTimeout(50*time.Millisecond),
		api.WithRetry(api.RetryPolicy{Attempts: 1}))
	_, err := c.Mids(ctx(), "all")
	if apiKind(err) != api.KindTimeout {
		t.Errorf("%v, want the client's timeout", err)
	}
	// A caller that waits gets the 504 after the whole stall (at least its second: load only
	// makes it later).
	e = quietEnv(t, WithFaults(Faults{Timeout: 1, Delay: time.Second}))
	start := time.Now()
	code, _ := e.postRaw(t, "/info", `{"method":"mids","params":{}}`)
	if code != 504 || time.Since(start) < time.Second {
		t.Errorf("stall: %d after %v", code, time.Since(start))
	}
}

func TestFaultGarbage(t *testing.T) {
	t.Parallel()
	e := quietEnv(t, WithFaults(Faults{Garbage: 1}))
	for i := 0; i < 3; i++ {
		code, body := e.postRaw(t, "/info", `{"method":"mids","params":{}}`)
		if code != 200 || strings.HasPrefix(body, "{") && strings.HasSuffix(body, "}") {
			t.Errorf("garbage %d %q", code, body)
		}
	}
	_, err := e.client("alice").Mids(ctx(), "all")
	if err == nil {
		t.Error("client read garbage without an error")
	}
}

func TestFaultLostResponse(t *testing.T) {
	t.Parallel()
	e := quietEnv(t, WithFaults(Faults{Lost: 1}))
	alice := e.client("alice")
	_, err := alice.PlaceOrders(ctx(), []api.OrderWire{limit(1, api.SideBuy, "97000", "0.1")})
	if err == nil || !api.IsAmbiguous(err) {
		t.Errorf("lost response: %v (ambiguous %v)", err, api.IsAmbiguous(err))
	}
	e.sim.mu.Lock()
	n := len(e.sim.eng.orders)
	e.sim.mu.Unlock()
	if n != 1 {
		t.Errorf("the action should have taken effect: %d open orders", n)
	}
}

func TestFaultShare(t *testing.T) {
	t.Parallel()
	e := quietEnv(t, WithFaults(Faults{ServerError: 0.3}))
	failed := 0
	for i := 0; i < 200; i++ {
		if code, _ := e.postRaw(t, "/info", `{"method":"mids","params":{}}`); code >= 500 {
			failed++
		}
	}
	if failed < 35 || failed > 85 {
		t.Errorf("%d of 200 failed with a 0.3 share", failed)
	}
}
