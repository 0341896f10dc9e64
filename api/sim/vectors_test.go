package sim

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"testing"
)

type vectorFile struct {
	Signer  string `json:"signer_address"`
	Vectors []struct {
		Name        string `json:"name"`
		TxType      int    `json:"txType"`
		RequestBody string `json:"request_body"`
	} `json:"vectors"`
}

// The official SDK's signed requests are attributed to the vector's signer.
func TestSigningVectorsAttributed(t *testing.T) {
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
	for _, v := range vf.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			e := quietEnv(t) // every vector uses the same nonce: one simulator each
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
			if resp.StatusCode == http.StatusOK && out.TxType != v.TxType {
				t.Errorf("tx_type %d, want %d", out.TxType, v.TxType)
			}
			t.Logf("%s: status %d error %q", v.Name, resp.StatusCode, out.Error)

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
