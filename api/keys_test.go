package api

import (
	"context"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api/internal/secp"
)

func TestSignerFromHex(t *testing.T) {
	bare := strings.TrimPrefix(testKey, "0x")
	for _, in := range []string{testKey, bare, strings.ToUpper(bare), "  " + testKey + "\n", "0X" + bare} {
		s, err := SignerFromHex(in)
		if err != nil || s.Address() != testAddr {
			t.Fatalf("%d-char key: %v %v", len(in), s, err)
		}
	}
	for name, in := range map[string]string{
		"empty":    "",
		"short":    bare[:62],
		"long":     bare + "00",
		"not hex":  "zz" + bare[2:],
		"zero":     strings.Repeat("0", 64),
		"too big":  strings.Repeat("f", 64),
		"0x only":  "0x",
		"with key": bare[:63] + "g",
	} {
		_, err := SignerFromHex(in)
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if len(in) > 8 && strings.Contains(err.Error(), in[2:10]) {
			t.Errorf("%s: error %q echoes the key", name, err)
		}
	}
}

func TestSignerFromEnv(t *testing.T) {
	t.Setenv(EnvPrivateKey, testKey)
	s, ok, err := SignerFromEnv()
	if err != nil || !ok || s.Address() != testAddr {
		t.Fatalf("%v %v %v", s, ok, err)
	}
	t.Setenv(EnvPrivateKey, "0xdeadbeef")
	_, ok, err = SignerFromEnv()
	if !ok || err == nil || !strings.Contains(err.Error(), EnvPrivateKey) || strings.Contains(err.Error(), "deadbeef") {
		t.Fatalf("bad env key: %v %v", ok, err)
	}
	os.Unsetenv(EnvPrivateKey)
	if s, ok, err := SignerFromEnv(); s != nil || ok || err != nil {
		t.Fatalf("unset: %v %v %v", s, ok, err)
	}
}

func TestPassphraseSourceFromEnv(t *testing.T) {
	t.Setenv(EnvPassphrase, "from env")
	pw, err := PassphraseSource("Passphrase: ")()
	if err != nil || pw != "from env" {
		t.Fatalf("%q %v", pw, err)
	}
}

func TestChecksumAddress(t *testing.T) {
	for in, want := range map[string]string{
		"0x2c7536e3605d9c16a7a3d7b1898e529396a65c23": testAddr,
		"0x2C7536E3605D9C16A7A3D7B1898E529396A65C23": testAddr,
		"0X2c7536e3605d9c16a7a3d7b1898e529396a65c23": testAddr,
		testAddr: testAddr,
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed": "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
		"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359": "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
	} {
		got, err := ChecksumAddress(in)
		if err != nil || got != want {
			t.Errorf("ChecksumAddress(%s) = %s, %v; want %s", in, got, err, want)
		}
	}
	for in, why := range map[string]string{
		"": "start with 0x",
		"2c7536e3605d9c16a7a3d7b1898e529396a65c23":     "start with 0x",
		"0x2c7536e3605d9c16a7a3d7b1898e529396a65c2":    "40 hex digits",
		"0x2c7536e3605d9c16a7a3d7b1898e529396a65c2300": "40 hex digits",
		"0x2c7536e3605d9c16a7a3d7b1898e529396a65cgg":   "not hex",
		"0x2c7536E3605D9C16a7a3D7b1898e529396a65C23":   "checksum",
	} {
		_, err := ChecksumAddress(in)
		if err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("ChecksumAddress(%q) = %v, want an error about %q", in, err, why)
		}
	}
	if !IsChecksummed(testAddr) || IsChecksummed(strings.ToLower(testAddr)) {
		t.Error("IsChecksummed")
	}
	if !SameAddress(testAddr, strings.ToLower(testAddr)) || SameAddress(testAddr, destAddr) || SameAddress("x", "x") {
		t.Error("SameAddress")
	}
}

// TestKeyNeverPrinted formats every type that holds the key, and every error a keyed client can
// produce, and looks for the key in any form.
func TestKeyNeverPrinted(t *testing.T) {
	s, _ := SignerFromHex(testKey)
	bare := strings.TrimPrefix(testKey, "0x")
	kb, _ := secp.KeyBytes(s.key)
	raw := kb[:]
	forms := []string{bare, strings.ToUpper(bare), new(big.Int).SetBytes(raw).String(), fmt.Sprint(raw), string(raw)}
	rec := newRecorder(t, func(w http.ResponseWriter, _ *http.Request, _ []byte) {
		w.WriteHeader(500)
		_, _ = w.Write([]byte(`{"error":"no"}`))
	})
	c := New(rec.srv.URL, WithSigner(s))
	_, err1 := c.CancelAll(context.Background())
	_, err2 := c.PlaceOrders(context.Background(), []OrderWire{{Side: "x"}})
	var out strings.Builder
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d", "%x", "%X", "%q"} {
		for _, v := range []any{s, *s, c, err1, err2} {
			fmt.Fprintf(&out, verb+"\n", v)
		}
	}
	fmt.Fprintln(&out, s.String(), s.GoString(), c.String())
	text := out.String()
	for _, f := range forms {
		if strings.Contains(text, f) {
			t.Fatalf("key material %q printed in:\n%s", f[:8], text)
		}
	}
	if !strings.Contains(text, testAddr) {
		t.Fatal("address not shown either")
	}
}

// TestTakeSecretEnv: the key and the passphrase leave the process environment once read, and the
// Getenv returned still answers them (and every other name from the environment). Guards the
// secrets left in the environment for child processes and libraries to read.
func TestTakeSecretEnv(t *testing.T) {
	t.Setenv(EnvPrivateKey, connKeyHex)
	t.Setenv(EnvPassphrase, "correct horse")
	t.Setenv("TRADEDESK_TEST_OTHER", "other")
	getenv := TakeSecretEnv()
	for _, name := range []string{EnvPrivateKey, EnvPassphrase} {
		if v, ok := os.LookupEnv(name); ok {
			t.Errorf("%s still in the environment (%d characters)", name, len(v))
		}
	}
	if getenv(EnvPrivateKey) != connKeyHex || getenv(EnvPassphrase) != "correct horse" || getenv("TRADEDESK_TEST_OTHER") != "other" {
		t.Error("the Getenv returned lost a value")
	}
}
