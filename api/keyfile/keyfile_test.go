package keyfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/google/uuid"
	"github.com/tradedesk/tradedesk/api"
)

const (
	connKeyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	connAddr   = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
	otherAddr  = "0x00000000000000000000000000000000000000aa"
)

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestKeystoreRoundTrip(t *testing.T) {
	key, err := crypto.HexToECDSA(strings.TrimPrefix(connKeyHex, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	k := &keystore.Key{Id: uuid.New(), Address: crypto.PubkeyToAddress(key.PublicKey), PrivateKey: key}
	blob, err := keystore.EncryptKey(k, "correct horse", testScryptN, testScryptP)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "key.json")
	if err := os.WriteFile(path, blob, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, "correct horse")
	if err != nil || s.Address() != connAddr {
		t.Fatalf("decrypt: %v %v", s, err)
	}
	if _, err := Open(path, "wrong"); err == nil || !strings.Contains(err.Error(), "wrong passphrase") {
		t.Fatalf("wrong passphrase: %v", err)
	}
	if _, err := Open(filepath.Join(t.TempDir(), "none.json"), "x"); err == nil {
		t.Fatal("missing file accepted")
	}
	if _, err := Decrypt([]byte(`{"version":3}`), "x"); err == nil || !strings.Contains(err.Error(), "keystore") {
		t.Fatalf("garbage keystore: %v", err)
	}
}

// TestKeystoreWithHugeKDFRefused: a keystore asking for a scrypt N far above the standard 262144
// (or a huge r, p or pbkdf2 count) is refused at once with a message, before any derivation; the
// standard and light parameters still open. Guards checkKDF's limits (dropped: the start hangs
// for minutes; too tight: the standard keystore is refused).
func TestKeystoreWithHugeKDFRefused(t *testing.T) {
	key, err := crypto.HexToECDSA(strings.TrimPrefix(connKeyHex, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	k := &keystore.Key{Id: uuid.New(), Address: crypto.PubkeyToAddress(key.PublicKey), PrivateKey: key}
	blob, err := keystore.EncryptKey(k, "pw", keystore.LightScryptN, keystore.LightScryptP)
	if err != nil {
		t.Fatal(err)
	}
	with := func(param string, v float64, more ...any) []byte {
		var m map[string]any
		if err := json.Unmarshal(blob, &m); err != nil {
			t.Fatal(err)
		}
		kp := m["crypto"].(map[string]any)["kdfparams"].(map[string]any)
		kp[param] = v
		for i := 0; i+1 < len(more); i += 2 {
			kp[more[i].(string)] = more[i+1]
		}
		out, _ := json.Marshal(m)
		return out
	}
	// "At once" is a ratio, not a time: a refusal (the fastest of three) takes less than opening
	// the light keystore (scrypt N 4096) in the same test; a derivation before the refusal takes
	// a thousand times that or more.
	start := time.Now()
	if _, err := Decrypt(blob, "pw"); err != nil {
		t.Fatalf("the light keystore: %v", err)
	}
	light := time.Since(start)
	for _, tc := range []struct {
		param string
		v     float64
	}{{"n", 1 << 22}, {"n", 1 << 40}, {"r", 1 << 16}, {"p", 1 << 20}} {
		fastest := time.Duration(math.MaxInt64)
		for range 3 {
			start := time.Now()
			_, err := Decrypt(with(tc.param, tc.v), "pw")
			fastest = min(fastest, time.Since(start))
			if err == nil || !strings.Contains(err.Error(), "would take far longer") {
				t.Fatalf("%s %v: %v", tc.param, tc.v, err)
			}
		}
		if fastest >= light {
			t.Errorf("%s %v: refused after %s, longer than opening the light keystore (%s)", tc.param, tc.v, fastest, light)
		}
	}
	if err := checkKDF(with("n", 262144, "p", 1)); err != nil {
		t.Errorf("the standard parameters are refused: %v", err)
	}
	pb := strings.Replace(strings.Replace(string(blob), `"scrypt"`, `"pbkdf2"`, 1), `"kdfparams":{`, `"kdfparams":{"c":1e12,`, 1)
	if err := checkKDF([]byte(pb)); err == nil {
		t.Error("a pbkdf2 count of 1e12 is accepted")
	}
}

// TestKeystoreSizeCap: a keystore file over MaxSize is refused with what to fix, before
// it is read whole or a passphrase is asked. Guards the unbounded os.ReadFile.
func TestKeystoreSizeCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	if err := os.WriteFile(path, bytes.Repeat([]byte(" "), MaxSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	asked := false
	_, err := LoadSigner(Credentials{Keystore: path, Getenv: envOf(nil), Passphrase: func(string) (string, error) { asked = true; return "", nil }})
	if err == nil || !strings.Contains(err.Error(), "over 1 MiB") || asked {
		t.Fatalf("a 1 MiB + 1 keystore: %v (passphrase asked: %v)", err, asked)
	}
	if _, err := Open(path, "x"); err == nil || !strings.Contains(err.Error(), "over 1 MiB") {
		t.Fatalf("SignerFromKeystore: %v", err)
	}
	dir := t.TempDir()
	if _, err := readFile(dir); err == nil || strings.Count(err.Error(), dir) != 1 || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("a directory: %v (want it named once)", err)
	}
}

// TestLoadSignerEnvKey: a key from the environment, with the mainnet warning (never repeating the
// key) and the address check. Guards the warning's network test dropped or inverted and the
// address check skipped for keys from the environment (the headless commands skipped it).
func TestLoadSignerEnvKey(t *testing.T) {
	env := envOf(map[string]string{api.EnvPrivateKey: connKeyHex})
	var warn bytes.Buffer
	s, err := LoadSigner(Credentials{Network: "mainnet", Getenv: env, Warn: &warn})
	if err != nil || s.Address() != connAddr {
		t.Fatalf("env key: %v", err)
	}
	if !strings.Contains(warn.String(), "MAINNET") || strings.Contains(warn.String(), connKeyHex[8:24]) {
		t.Errorf("mainnet warning %q", warn.String())
	}
	if _, err := LoadSigner(Credentials{Getenv: envOf(map[string]string{api.EnvPrivateKey: "0x1234nothex"})}); err == nil || strings.Contains(err.Error(), "1234nothex") {
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
	env := envOf(map[string]string{api.EnvPrivateKey: connKeyHex})
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
	env := envOf(map[string]string{api.EnvPassphrase: "correct horse", api.EnvPrivateKey: other})
	var warn bytes.Buffer
	if s, err := LoadSigner(Credentials{Keystore: path, Network: "mainnet", Getenv: env, Warn: &warn}); err != nil || s.Address() != connAddr || warn.Len() != 0 {
		t.Fatalf("keystore: %v, warning %q", err, warn.String())
	}
	asked := ""
	ask := func(prompt string) (string, error) { asked = prompt; return "correct horse", nil }
	if _, err := LoadSigner(Credentials{Keystore: path, Getenv: envOf(nil), Passphrase: ask}); err != nil || !strings.Contains(asked, "key.json") {
		t.Errorf("asked passphrase: %v, prompt %q", err, asked)
	}
	if _, err := LoadSigner(Credentials{Keystore: path, Getenv: envOf(map[string]string{api.EnvPassphrase: "wrong"})}); err == nil || !strings.Contains(err.Error(), "passphrase") {
		t.Errorf("wrong passphrase: %v", err)
	}
	_, err = LoadSigner(Credentials{Keystore: path, Address: otherAddr, Getenv: env})
	var wrong *WrongAccountError
	if !errors.As(err, &wrong) || !strings.Contains(err.Error(), "not the keystore's address") {
		t.Errorf("mismatched address: %v", err)
	}
}
