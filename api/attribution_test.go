package api

import (
	"net/http"
	"strings"
	"testing"
)

// TestAnswerForAnotherAccountIsNotSuccess: an /exchange answer that says it acted, but names
// another account, is an error for every action: "the exchange attributed this action to 0x…;
// nothing was done on your account". The same answer naming the client's own account (in any
// case) is success. Guards the comparison in send (dropped, or flipped to accept a mismatch).
func TestAnswerForAnotherAccountIsNotSuccess(t *testing.T) {
	for _, tc := range []struct {
		name, address string
		fails         bool
	}{
		{"another account", destAddr, true},
		{"not an address", "0xnot-an-address", true},
		{"the account, lower case", "", false},
		{"no address", "-", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c *Client
			rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
				addr := tc.address
				switch addr {
				case "":
					addr = strings.ToLower(c.Address())
				case "-":
					_, _ = w.Write([]byte(`{"tx_hash":"0xab","success":true,"data":{"status":[{"resting":{"oid":7}}],"orders_cancelled":1,"nonce":5}}`))
					return
				}
				_, _ = w.Write([]byte(`{"tx_hash":"0xab","address":"` + addr + `","success":true,"data":{"status":[{"resting":{"oid":7}}],"orders_cancelled":1,"nonce":5}}`))
			})
			c = newTestClient(t, rec.srv.URL)
			for method, err := range everyCall(c) {
				if !exchangeCalls[method] {
					continue
				}
				if !tc.fails {
					if err != nil {
						t.Errorf("%s: %v", method, err)
					}
					continue
				}
				e, ok := AsError(err)
				if !ok || e.Ambiguous() || !strings.Contains(err.Error(), "the exchange attributed this action to ") ||
					!strings.Contains(err.Error(), "nothing was done on your account") {
					t.Errorf("%s: %v", method, err)
				}
				if tc.address == destAddr && !strings.Contains(err.Error(), destAddr) {
					t.Errorf("%s: %v does not name the account credited", method, err)
				}
			}
		})
	}
}
