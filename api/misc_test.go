package api

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"
)

type countingTransport struct{ n atomic.Int32 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

func TestWithHTTPClientIsUsed(t *testing.T) {
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) { _, _ = w.Write([]byte(`[]`)) })
	tr := &countingTransport{}
	c := newTestClient(t, rec.srv.URL, WithHTTPClient(&http.Client{Transport: tr}), WithHTTPClient(nil))
	if _, err := c.Mids(context.Background(), ""); err != nil || tr.n.Load() != 1 {
		t.Fatalf("%v, transport used %d times", err, tr.n.Load())
	}
}

func TestNewSignerRejectsBadKeys(t *testing.T) {
	if _, err := NewSigner(nil); err == nil {
		t.Fatal("nil key accepted")
	}
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if _, err := NewSigner(p256); err == nil || !strings.Contains(err.Error(), "secp256k1") {
		t.Fatalf("P-256 key: %v", err)
	}
	var nilSigner *Signer
	if nilSigner.String() != "Signer(nil)" {
		t.Fatal(nilSigner.String())
	}
}

func TestRecoverActionSigner(t *testing.T) {
	vf := loadVectors(t)
	for _, v := range vf.Vectors {
		got, err := RecoverActionSigner(v.Source, v.TxType, vectorData(t, v), v.Signature)
		if err != nil || got != vf.SignerAddress {
			t.Fatalf("%s: %s %v", v.Name, got, err)
		}
	}
	if _, err := RecoverActionSigner(SourceMainnet, TxCancelAll, &CancelAllData{}, "0x12"); err == nil {
		t.Fatal("short signature accepted")
	}
	if _, err := RecoverAddress([32]byte{}, make([]byte, 64)); err == nil {
		t.Fatal("64-byte signature accepted")
	}
}

func TestActionTable(t *testing.T) {
	as := Actions()
	if len(as) != 16 {
		t.Fatalf("%d actions", len(as))
	}
	for _, a := range as {
		d := a.NewData()
		if _, err := AppendActionMsgpack(nil, d); err != nil {
			t.Errorf("%s: %v", a.Name, err)
		}
		if b, ok := LookupTxType(a.TxType); !ok || b.Name != a.Name {
			t.Errorf("%s: tx lookup gave %s", a.Name, b.Name)
		}
	}
	for _, v := range []any{PlaceOrderData{}, CancelByOidData{}, CancelByCloidData{}, CancelByInstrumentData{},
		CancelAllData{}, TransferData{}, InternalTransferData{}, WithdrawData{}} {
		if _, err := AppendActionMsgpack(nil, v); err != nil {
			t.Errorf("%T: %v", v, err)
		}
	}
	e := &RequestError{Field: "signature", Msg: "missing"}
	if e.Error() != "bad /exchange request: signature: missing" || !IsRequestError(e) || IsRequestError(os.ErrClosed) {
		t.Fatal(e.Error())
	}
}

func TestEncodeRequestUnknownAction(t *testing.T) {
	s := testSigner(t, testKey)
	if _, err := s.EncodeRequest(SourceMainnet, "transferAll", &CancelAllData{Nonce: 1}); err == nil {
		t.Fatal("unknown action accepted")
	}
	body, err := s.EncodeRequest(SourceMainnet, "1311", &CancelAllData{Nonce: 5})
	if err != nil || !strings.HasPrefix(string(body), `{"action":{"type":"cancelAll","data":{"nonce":5}},"signature":"0x`) {
		t.Fatalf("%s %v", body, err)
	}
}

func TestPassphrasePromptWithoutTerminal(t *testing.T) {
	if f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		f.Close()
		t.Skip("a terminal is attached; the prompt would wait for input")
	}
	t.Setenv(EnvPassphrase, "")
	os.Unsetenv(EnvPassphrase)
	_, err := PassphraseSource("Passphrase: ")()
	if err == nil || !strings.Contains(err.Error(), EnvPassphrase) {
		t.Fatalf("%v", err)
	}
}
