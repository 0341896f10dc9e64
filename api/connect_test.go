package api

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/google/uuid"
)

const (
	connKeyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	connAddr   = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
	otherAddr  = "0x00000000000000000000000000000000000000aa"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// TestResolveEndpoint: one of URL and network; plain http only to loopback unless insecure; a
// known network's URL signs for it. Guards the loopback test inverted and the URL match dropped.
func TestResolveEndpoint(t *testing.T) {
	for _, tc := range []struct {
		e        Endpoint
		base     string
		network  string // "" = no network
		name     string
		errWords string
	}{
		{Endpoint{Network: "testnet"}, Testnet.URL, "testnet", "testnet", ""},
		{Endpoint{URL: "https://api.hotstuff.trade"}, "https://api.hotstuff.trade", "mainnet", "mainnet", ""},
		{Endpoint{URL: "http://127.0.0.1:8545/"}, "http://127.0.0.1:8545/", "", "127.0.0.1:8545", ""},
		{Endpoint{URL: "http://localhost:1/"}, "http://localhost:1/", "", "localhost:1", ""},
		{Endpoint{URL: "http://[::1]:80/"}, "http://[::1]:80/", "", "[::1]:80", ""},
		{Endpoint{URL: "http://api.example.com/", Insecure: true}, "http://api.example.com/", "", "api.example.com", ""},
		{Endpoint{URL: "http://api.example.com/"}, "", "", "", "plain http to a host that is not loopback"},
		{Endpoint{URL: "ftp://x/"}, "", "", "", "want an absolute http:// or https:// URL"},
		{Endpoint{URL: "nonsense"}, "", "", "", "want an absolute"},
		{Endpoint{URL: "https://x/", Network: "mainnet"}, "", "", "", "not both"},
		{Endpoint{}, "", "", "", "no exchange"},
		{Endpoint{Network: "moonnet"}, "", "", "", "unknown network"},
	} {
		r, err := ResolveEndpoint(tc.e)
		if tc.errWords != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errWords) {
				t.Errorf("%+v: error %v, want %q", tc.e, err, tc.errWords)
			}
			continue
		}
		got := ""
		if r.Network != nil {
			got = r.Network.Name
		}
		if err != nil || r.Base != tc.base || got != tc.network || r.Name != tc.name || len(r.Options()) != 2+map[bool]int{true: 1}[got != ""] {
			t.Errorf("%+v: %+v (network %q), %v", tc.e, r, got, err)
		}
	}
}

// TestLoadSignerEnvKey: a key from the environment, with the mainnet warning (never repeating the
// key) and the address check. Guards the warning's network test dropped or inverted and the
// address check skipped for keys from the environment (the headless commands skipped it).
func TestLoadSignerEnvKey(t *testing.T) {
	env := envOf(map[string]string{EnvPrivateKey: connKeyHex})
	var warn bytes.Buffer
	s, err := LoadSigner(Credentials{Network: "mainnet", Getenv: env, Warn: &warn})
	if err != nil || s.Address() != connAddr {
		t.Fatalf("env key: %v", err)
	}
	if !strings.Contains(warn.String(), "MAINNET") || strings.Contains(warn.String(), connKeyHex[8:24]) {
		t.Errorf("mainnet warning %q", warn.String())
	}
	if _, err := LoadSigner(Credentials{Getenv: envOf(map[string]string{EnvPrivateKey: "0x1234nothex"})}); err == nil || strings.Contains(err.Error(), "1234nothex") {
		t.Errorf("bad key: %v", err)
	}
	if s, err := LoadSigner(Credentials{Address: otherAddr, Getenv: envOf(nil)}); s != nil || err != nil {
		t.Errorf("no key: %v, %v (an address alone is read-only, not an error)", s, err)
	}
}

// TestAddressAloneNeverLoadsTheEnvKey: an address without a keystore is watched, whatever the
// shell exports: the key in $TRADEDESK_PRIVATE_KEY is not loaded, not even when it is the
// address's own key, and EnvKeyIgnored says so. A keystore or an agent keystore with the address
// still loads. Guards the console that opened LIVE and signed with `--address 0xMINE` and the key
// exported.
func TestAddressAloneNeverLoadsTheEnvKey(t *testing.T) {
	env := envOf(map[string]string{EnvPrivateKey: connKeyHex})
	for _, addr := range []string{connAddr, strings.ToLower(connAddr), otherAddr} {
		c := Credentials{Network: "testnet", Address: addr, Getenv: env}
		if s, err := LoadSigner(c); s != nil || err != nil {
			t.Errorf("--address %s with the key exported: signer %v, %v; want read-only", addr, s, err)
		}
		if !c.Watching() || !c.EnvKeyIgnored() {
			t.Errorf("--address %s: watching %v, env key ignored %v", addr, c.Watching(), c.EnvKeyIgnored())
		}
	}
	if (Credentials{Address: connAddr, Getenv: envOf(nil)}).EnvKeyIgnored() {
		t.Error("no key exported: nothing is ignored")
	}
	if (Credentials{Address: connAddr, Keystore: "k.json", Getenv: env}).Watching() || (Credentials{Address: connAddr, AgentKeystore: "a.json"}).Watching() {
		t.Error("a keystore with the address is not a watch")
	}
}

// TestLoadSignerKeystore: the keystore wins over the environment; its passphrase comes from the
// environment or is asked; the address must be the keystore's. Guards the passphrase order and
// the keystore's address check dropped.
func TestLoadSignerKeystore(t *testing.T) {
	pk, err := crypto.HexToECDSA(connKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	blob, err := keystore.EncryptKey(&keystore.Key{Id: uuid.New(), Address: crypto.PubkeyToAddress(pk.PublicKey), PrivateKey: pk},
		"correct horse", testScryptN, testScryptP)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "key.json")
	if err := os.WriteFile(path, blob, 0o600); err != nil {
		t.Fatal(err)
	}
	other := "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" // not the keystore's
	env := envOf(map[string]string{EnvPassphrase: "correct horse", EnvPrivateKey: other})
	var warn bytes.Buffer
	if s, err := LoadSigner(Credentials{Keystore: path, Network: "mainnet", Getenv: env, Warn: &warn}); err != nil || s.Address() != connAddr || warn.Len() != 0 {
		t.Fatalf("keystore: %v, warning %q", err, warn.String())
	}
	asked := ""
	ask := func(prompt string) (string, error) { asked = prompt; return "correct horse", nil }
	if _, err := LoadSigner(Credentials{Keystore: path, Getenv: envOf(nil), Passphrase: ask}); err != nil || !strings.Contains(asked, "key.json") {
		t.Errorf("asked passphrase: %v, prompt %q", err, asked)
	}
	if _, err := LoadSigner(Credentials{Keystore: path, Getenv: envOf(map[string]string{EnvPassphrase: "wrong"})}); err == nil || !strings.Contains(err.Error(), "passphrase") {
		t.Errorf("wrong passphrase: %v", err)
	}
	_, err = LoadSigner(Credentials{Keystore: path, Address: otherAddr, Getenv: env})
	var wrong *WrongAccountError
	if !errors.As(err, &wrong) || !strings.Contains(err.Error(), "not the keystore's address") {
		t.Errorf("mismatched address: %v", err)
	}
}
