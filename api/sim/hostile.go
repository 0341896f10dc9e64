package sim

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// HostilePayload is what Hostile writes into every string it touches: it would set the
// terminal's title, put an attacker's address in the clipboard (OSC 52), clear the screen, turn
// the background red (by ESC and by the C1 form of CSI), ring the bell and reorder what follows.
const HostilePayload = "\x1b]0;PWNED\a\x1b]52;c;MHhiYWRiYWQ=\a\x1b[2J\x1b[41m\u009b31m\x07\x7f\u202e"

// hostileKeys are the fields whose strings Hostile lengthens: every name, symbol, cloid, state and
// message a server chooses. Not the account a record names (user, account, address): the client
// compares it with the account it asked for and drops a record that names another, so a poisoned
// one would leave no record to draw.
var hostileKeys = map[string]bool{
	"name": true, "symbol": true, "instrument": true, "instrument_name": true, "cloid": true,
	"broker": true, "tx_hash": true, "state": true, "direction": true, "price_index": true, "error": true,
	"message": true,
}

// hostileMaps are the fields whose map keys (collateral and instrument names) Hostile lengthens.
var hostileMaps = map[string]bool{"spot_collateral": true, "collateral": true, "perp_positions": true, "vault_balances": true}

// Hostile wraps an exchange (the simulator) to play a hostile one, for tests of what reaches a
// terminal: every name, symbol, cloid, state and message in an /info answer ends with
// payload (the same payload everywhere, so names still match one another), and every /exchange
// request is refused, without being acted on, with an error that carries payload.
func Hostile(next http.Handler, payload string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/exchange" {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "order refused" + payload})
			return
		}
		rec := &recorder{header: http.Header{}, status: http.StatusOK}
		next.ServeHTTP(rec, r)
		dec := json.NewDecoder(bytes.NewReader(rec.body.Bytes()))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) != nil {
			w.WriteHeader(rec.status)
			_, _ = w.Write(rec.body.Bytes())
			return
		}
		writeJSON(w, rec.status, poison(v, "", payload))
	})
}

// poison appends payload to the strings of v under hostileKeys and to the keys of the maps under
// hostileMaps; key is the field v was found under.
func poison(v any, key, payload string) any {
	switch x := v.(type) {
	case string:
		if hostileKeys[key] {
			return x + payload
		}
	case []any:
		for i := range x {
			x[i] = poison(x[i], key, payload)
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			nk := k
			if hostileMaps[key] {
				nk = k + payload
			}
			out[nk] = poison(e, k, payload)
		}
		return out
	}
	return v
}

// recorder keeps an answer so that Hostile can rewrite it.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(p []byte) (int, error) { return r.body.Write(p) }
func (r *recorder) WriteHeader(status int)      { r.status = status }
