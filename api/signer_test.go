package api

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api/internal/secp"
)

type vectorFile struct {
	PrivateKey    string   `json:"private_key"`
	SignerAddress string   `json:"signer_address"`
	Vectors       []vector `json:"vectors"`
}

type vector struct {
	Name        string          `json:"name"`
	TxType      uint16          `json:"txType"`
	Source      string          `json:"source"`
	Data        json.RawMessage `json:"data"`
	DataJSON    string          `json:"data_json"`
	MsgpackHex  string          `json:"msgpack_hex"`
	Hash        string          `json:"hash"`
	Digest      string          `json:"eip712_digest"`
	Signature   string          `json:"signature"`
	Address     string          `json:"address"`
	RequestBody string          `json:"request_body"`
}

func loadVectors(t testing.TB) vectorFile {
	t.Helper()
	raw, err := os.ReadFile("testdata/signing-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vf vectorFile
	if err := json.Unmarshal(raw, &vf); err != nil {
		t.Fatal(err)
	}
	if len(vf.Vectors) != 12 {
		t.Fatalf("want 12 vectors, got %d", len(vf.Vectors))
	}
	return vf
}

func testSigner(t testing.TB, keyHex string) *Signer {
	t.Helper()
	raw, err := hex.DecodeString(strings.TrimPrefix(keyHex, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	key, err := secp.KeyFromBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSigner(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// vectorData decodes a vector's data into the typed struct of its tx type.
func vectorData(t *testing.T, v vector) ActionData {
	t.Helper()
	info, ok := LookupTxType(v.TxType)
	if !ok {
		t.Fatalf("%s: unknown tx type %d", v.Name, v.TxType)
	}
	d := info.NewData()
	if err := json.Unmarshal(v.Data, d); err != nil {
		t.Fatalf("%s: %v", v.Name, err)
	}
	return d
}

func TestSigningVectors(t *testing.T) {
	vf := loadVectors(t)
	s := testSigner(t, vf.PrivateKey)
	if s.Address() != vf.SignerAddress {
		t.Fatalf("address %s, want %s", s.Address(), vf.SignerAddress)
	}
	for _, v := range vf.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			d := vectorData(t, v)
			mp := d.AppendMsgpack(nil)
			if got := "0x" + hex.EncodeToString(mp); got != v.MsgpackHex {
				t.Fatalf("msgpack\n got %s\nwant %s", got, v.MsgpackHex)
			}
			h := ActionHash(d)
			if got := "0x" + hex.EncodeToString(h[:]); got != v.Hash {
				t.Fatalf("hash %s, want %s", got, v.Hash)
			}
			dg := TypedDataDigest(v.Source, h, v.TxType)
			if got := "0x" + hex.EncodeToString(dg[:]); got != v.Digest {
				t.Fatalf("digest %s, want %s", got, v.Digest)
			}
			sig, err := s.SignAction(v.Source, v.TxType, d)
			if err != nil || sig != v.Signature {
				t.Fatalf("signature %s (%v), want %s", sig, err, v.Signature)
			}
			// JSON of the typed data keeps the signing key order, as the body must.
			js, _ := json.Marshal(d)
			if string(js) != v.DataJSON {
				t.Fatalf("data JSON\n got %s\nwant %s", js, v.DataJSON)
			}
			checkVectorBody(t, v)
		})
	}
}

func checkVectorBody(t *testing.T, v vector) {
	t.Helper()
	req, err := DecodeSignedRequest([]byte(v.RequestBody), v.Source)
	if err != nil {
		t.Fatalf("DecodeSignedRequest: %v", err)
	}
	if req.Signer != v.Address {
		t.Fatalf("recovered %s, want %s", req.Signer, v.Address)
	}
	if req.TxType != v.TxType || req.Nonce != req.DataNonce || req.Nonce != 1769690420567 {
		t.Fatalf("decoded %+v", req)
	}
	if got := "0x" + hex.EncodeToString(req.Digest[:]); got != v.Digest {
		t.Fatalf("request digest %s, want %s", got, v.Digest)
	}
	info, _ := LookupTxType(v.TxType)
	wantExp := uint64(0)
	if info.HasExpiry {
		wantExp = 1769690480567
	}
	if req.ExpiresAfter != wantExp {
		t.Fatalf("expiresAfter %d, want %d", req.ExpiresAfter, wantExp)
	}
	// The same body with the spec's name as type verifies to the same signer.
	named := strings.Replace(v.RequestBody, `"type":"`+itoa(v.TxType)+`"`, `"type":"`+info.Name+`"`, 1)
	if named == v.RequestBody {
		t.Fatal("type not replaced")
	}
	req2, err := DecodeSignedRequest([]byte(named), v.Source)
	if err != nil || req2.Signer != v.Address || req2.ActionName != info.Name {
		t.Fatalf("named type: %+v %v", req2, err)
	}
	// Another source gives another signer: the source is part of the signed message.
	req3, err := DecodeSignedRequest([]byte(v.RequestBody), SourceTestnet)
	if err != nil || req3.Signer == v.Address {
		t.Fatalf("testnet source recovered %v (%v)", req3, err)
	}
}

func itoa(n uint16) string { b, _ := json.Marshal(n); return string(b) }

func TestRecoverAddressMatchesSigner(t *testing.T) {
	vf := loadVectors(t)
	s := testSigner(t, vf.PrivateKey)
	var dg [32]byte
	for i := range 50 {
		dg[0], dg[31] = byte(i), byte(i*7)
		sig, err := s.SignDigest(dg)
		if err != nil {
			t.Fatal(err)
		}
		if sig[64] != 27 && sig[64] != 28 {
			t.Fatalf("v = %d", sig[64])
		}
		got, err := RecoverAddress(dg, sig[:])
		if err != nil || got != s.Address() {
			t.Fatalf("recovered %s (%v), want %s", got, err, s.Address())
		}
	}
}

func TestDecodeSignedRequestErrors(t *testing.T) {
	vf := loadVectors(t)
	good := vf.Vectors[0].RequestBody
	cases := []struct {
		name, body, field string
	}{
		{"not json", `{"action":`, "body"},
		{"array", `[]`, "body"},
		{"no action", `{"signature":"0x00","nonce":1}`, "action"},
		{"no type", `{"action":{"data":{"nonce":1}},"signature":"0x00","nonce":1}`, "action.type"},
		{"unknown type", strings.Replace(good, `"1301"`, `"9999"`, 1), "action.type"},
		{"unknown name", strings.Replace(good, `"1301"`, `"sendMoney"`, 1), "action.type"},
		{"data not object", `{"action":{"type":"cancelAll","data":[1]},"signature":"0x00","nonce":1}`, "action.data"},
		{"bad price type", strings.Replace(good, `"instrumentId":1`, `"instrumentId":"x"`, 1), "action.data"},
		{"no data nonce", `{"action":{"type":"cancelAll","data":{"expiresAfter":5}},"signature":"0x00","nonce":1}`, "action.data"},
		{"expiry on transfer", `{"action":{"type":"1051","data":{"expiresAfter":5,"nonce":1}},"signature":"0x00","nonce":1}`, "action.data"},
		{"no nonce", strings.TrimSuffix(good, `,"nonce":1769690420567}`) + "}", "nonce"},
		{"no signature", `{"action":{"type":"cancelAll","data":{"nonce":1}},"nonce":1}`, "signature"},
		{"short signature", `{"action":{"type":"cancelAll","data":{"nonce":1}},"signature":"0x1234","nonce":1}`, "signature"},
		{"no 0x", `{"action":{"type":"cancelAll","data":{"nonce":1}},"signature":"1234","nonce":1}`, "signature"},
		{"bad hex", `{"action":{"type":"cancelAll","data":{"nonce":1}},"signature":"0x` + strings.Repeat("zz", 65) + `","nonce":1}`, "signature"},
		{"bad v", `{"action":{"type":"cancelAll","data":{"nonce":1}},"signature":"0x` + strings.Repeat("11", 64) + `05","nonce":1}`, "signature"},
		{"zero sig", `{"action":{"type":"cancelAll","data":{"nonce":1}},"signature":"0x` + strings.Repeat("00", 64) + `1b","nonce":1}`, "signature"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeSignedRequest([]byte(c.body), SourceMainnet)
			re, ok := err.(*RequestError)
			if !ok {
				t.Fatalf("error %v (%T), want *RequestError", err, err)
			}
			if re.Field != c.field {
				t.Fatalf("field %q (%v), want %q", re.Field, err, c.field)
			}
		})
	}
}

func TestMsgpackIntForms(t *testing.T) {
	cases := []struct {
		v    int64
		want string
	}{
		{0, "00"}, {127, "7f"}, {128, "cc80"}, {255, "ccff"}, {256, "cd0100"}, {65535, "cdffff"},
		{65536, "ce00010000"}, {1<<32 - 1, "ceffffffff"}, {1 << 32, "cf0000000100000000"},
		{-1, "ff"}, {-32, "e0"}, {-33, "d0df"}, {-128, "d080"}, {-129, "d1ff7f"},
		{-32769, "d2ffff7fff"}, {-1 << 40, "d3ffffff0000000000"},
	}
	for _, c := range cases {
		if got := hex.EncodeToString(appendInt(nil, c.v)); got != c.want {
			t.Errorf("appendInt(%d) = %s, want %s", c.v, got, c.want)
		}
	}
}

func TestMsgpackStrAndArrayForms(t *testing.T) {
	for _, c := range []struct {
		n      int
		header string
	}{{0, "a0"}, {31, "bf"}, {32, "d920"}, {255, "d9ff"}, {256, "da0100"}, {70000, "db00011170"}} {
		got := appendStr(nil, strings.Repeat("x", c.n))
		if hex.EncodeToString(got[:len(c.header)/2]) != c.header || len(got) != c.n+len(c.header)/2 {
			t.Errorf("str of %d: header %x", c.n, got[:min(len(got), 5)])
		}
	}
	for _, c := range []struct {
		n    int
		want string
	}{{0, "90"}, {15, "9f"}, {16, "dc0010"}, {100, "dc0064"}, {70000, "dd00011170"}} {
		if got := hex.EncodeToString(appendArrayHeader(nil, c.n)); got != c.want {
			t.Errorf("array header %d = %s, want %s", c.n, got, c.want)
		}
	}
	if got := hex.EncodeToString(appendMapHeader(nil, 20)); got != "de0014" {
		t.Errorf("map16 header %s", got)
	}
	if !bytes.Equal(appendBool(nil, true), []byte{0xc3}) || !bytes.Equal(appendBool(nil, false), []byte{0xc2}) {
		t.Error("bool forms")
	}
}

func TestAppendActionMsgpackRejectsOtherTypes(t *testing.T) {
	if _, err := AppendActionMsgpack(nil, &OrderWire{}); err == nil {
		t.Fatal("an order alone is not action data")
	}
	if _, err := AppendActionMsgpack(nil, 42); err == nil {
		t.Fatal("int accepted")
	}
	a, err1 := AppendActionMsgpack(nil, CancelAllData{Nonce: 1})
	b, err2 := AppendActionMsgpack(nil, &CancelAllData{Nonce: 1})
	if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
		t.Fatalf("value and pointer differ: %x %x %v %v", a, b, err1, err2)
	}
}

func TestCancelAllWithoutExpiry(t *testing.T) {
	// expiresAfter 0 means none: the key is left out of the signed bytes and the JSON.
	d := &CancelAllData{Nonce: 1769690420567}
	if got := hex.EncodeToString(d.AppendMsgpack(nil)); got != "81a56e6f6e6365cf0000019c09c4d557" {
		t.Fatalf("msgpack %s", got)
	}
	js, _ := json.Marshal(d)
	if string(js) != `{"nonce":1769690420567}` {
		t.Fatalf("json %s", js)
	}
}

func TestLookupAction(t *testing.T) {
	for typ, want := range map[string]string{
		"placeOrder": ActionPlaceOrder, "1301": ActionPlaceOrder, "1312": ActionCancelByCloid,
		"accountSpotWithdrawRequest": ActionSpotWithdraw, "internalBalanceTransferRequest": ActionInternalTransfer,
	} {
		a, ok := LookupAction(typ)
		if !ok || a.Name != want {
			t.Errorf("LookupAction(%q) = %v %v, want %s", typ, a.Name, ok, want)
		}
	}
	for _, typ := range []string{"", "account", "1300", "PlaceOrder", "99999999"} {
		if _, ok := LookupAction(typ); ok {
			t.Errorf("LookupAction(%q) found", typ)
		}
	}
}
