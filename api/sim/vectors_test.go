package sim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"slices"
	"testing"
)

type vector struct {
	Name        string `json:"name"`
	TxType      int    `json:"txType"`
	RequestBody string `json:"request_body"`
}

type vectorFile struct {
	Signer  string   `json:"signer_address"`
	Vectors []vector `json:"vectors"`
}

// vectorRefusals are the vectors a fresh simulator must refuse, and why: they cancel orders that
// were never placed. Every other vector must be accepted.
var vectorRefusals = map[string]string{
	"cancelByOid":           "order 123 is not an open order of this account",
	"cancelByOid_large_oid": "order 153922070 is not an open order of this account",
	"cancelByCloid":         `order with cloid "ts-order-1769690420567" is not an open order of this account`,
}

// The official SDK's signed requests are attributed to the vector's signer, and each gets the
// answer it should: accepted with its tx type, or refused for the reason in vectorRefusals.
func TestSigningVectorsAttributed(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/signing-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vf vectorFile
	if err := json.Unmarshal(raw, &vf); err != nil {
		t.Fatal(err)
	}
	if len(vf.Vectors) != 12 {
		t.Fatalf("%d vectors", len(vf.Vectors))
	}
	for name := range vectorRefusals {
		if !slices.ContainsFunc(vf.Vectors, func(v vector) bool { return v.Name == name }) {
			t.Errorf("vectorRefusals names %q, which is not a vector", name)
		}
	}
	for _, v := range vf.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			e := quietEnv(t) // every vector uses the same nonce: one simulator each
			e.fund(vf.Signer)
			resp, err := http.Post(e.srv.URL+"/exchange", "application/json", bytes.NewBufferString(v.RequestBody))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var out struct {
				Address string `json:"address"`
				TxType  int    `json:"tx_type"`
				Error   string `json:"error"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
				t.Fatal(err)
			}
			if out.Address != vf.Signer {
				t.Fatalf("status %d, address %q, want %s (error %q)", resp.StatusCode, out.Address, vf.Signer, out.Error)
			}
			if want, refused := vectorRefusals[v.Name]; refused {
				if resp.StatusCode != http.StatusBadRequest || out.Error != want {
					t.Errorf("status %d error %q, want 400 %q", resp.StatusCode, out.Error, want)
				}
			} else if resp.StatusCode != http.StatusOK || out.Error != "" || out.TxType != v.TxType {
				t.Errorf("status %d error %q tx_type %d, want 200 with tx_type %d", resp.StatusCode, out.Error, out.TxType, v.TxType)
			}

			// The same body again reuses the nonce.
			again, err := http.Post(e.srv.URL+"/exchange/", "application/json", bytes.NewBufferString(v.RequestBody))
			if err != nil {
				t.Fatal(err)
			}
			again.Body.Close()
			if again.StatusCode != http.StatusUnauthorized {
				t.Errorf("replay: status %d, want 401", again.StatusCode)
			}
		})
	}
}
