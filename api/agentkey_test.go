package api

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testScryptN and testScryptP are the scrypt cost of the keystores these tests write: a keystore
// names its own cost, which is read back from the file, and what the tests check (the file, the
// passphrase, the address) does not hang on it. geth's light cost (N 4096, P 6) took about a
// second of CPU a test under -race; TestKeystoreWithHugeKDFRefused keeps it, as its yardstick.
const testScryptN, testScryptP = 1 << 4, 1

// lightScrypt makes WriteKeystore write at the tests' cost until the test ends.
func lightScrypt(t *testing.T) {
	old := KeystoreScrypt
	KeystoreScrypt.N, KeystoreScrypt.P = testScryptN, testScryptP
	t.Cleanup(func() { KeystoreScrypt = old })
}

// TestAgentKeystoreRoundTrip: a written agent keystore is owner-only, holds no key in clear,
// is never overwritten, and loads as an agent acting for the account given with it.
func TestAgentKeystoreRoundTrip(t *testing.T) {
	lightScrypt(t)
	agent, err := NewRandomSigner()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "agent.json")
	if err := agent.WriteKeystore(path, ""); err == nil {
		t.Fatal("empty passphrase accepted")
	}
	if err := agent.WriteKeystore(path, "pw"); err != nil {
		t.Fatal(err)
	}
	if err := agent.WriteKeystore(path, "pw"); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Fatalf("overwrote: %v", err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode())
	}
	env := envOf(map[string]string{EnvPassphrase: "pw"})
	s, err := LoadSigner(Credentials{AgentKeystore: path, Address: strings.ToLower(connAddr), Getenv: env})
	if err != nil || !s.IsAgent() || s.Account() != connAddr || s.Address() != agent.Address() {
		t.Fatalf("loaded %v (%v)", s, err)
	}
	for _, c := range []struct {
		cr   Credentials
		want string
	}{
		{Credentials{AgentKeystore: path, Getenv: env}, "needs --account"},
		{Credentials{AgentKeystore: path, Keystore: path, Address: connAddr, Getenv: env}, "not both"},
		{Credentials{AgentKeystore: path, Address: connAddr, Getenv: envOf(map[string]string{EnvPassphrase: "pw", EnvPrivateKey: connKeyHex})}, "unset"},
		{Credentials{AgentKeystore: path, Address: agent.Address(), Getenv: env}, "not the account"},
		{Credentials{AgentKeystore: path, Address: connAddr, Getenv: envOf(map[string]string{EnvPassphrase: "wrong"})}, "wrong passphrase"},
	} {
		if _, err := LoadSigner(c.cr); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cr.Address, err, c.want)
		}
	}
}
