package keyfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
)

// testScryptN and testScryptP are the scrypt cost of the keystores these tests write: a keystore
// names its own cost, which is read back from the file, and what the tests check (the file, the
// passphrase, the address) does not hang on it. geth's light cost (N 4096, P 6) took about a
// second of CPU a test under -race; TestKeystoreWithHugeKDFRefused keeps it, as its yardstick.
const testScryptN, testScryptP = 1 << 4, 1

// lightScrypt makes WriteKeystore write at the tests' cost until the test ends.
func lightScrypt(t *testing.T) {
	old := Scrypt
	Scrypt.N, Scrypt.P = testScryptN, testScryptP
	t.Cleanup(func() { Scrypt = old })
}

// TestAgentKeystoreRoundTrip: a written agent keystore is owner-only, holds no key in clear,
// is never overwritten, and loads as an agent acting for the account given with it.
func TestAgentKeystoreRoundTrip(t *testing.T) {
	lightScrypt(t)
	agent, err := api.NewRandomSigner()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "agent.json")
	if err := Write(agent, path, ""); err == nil {
		t.Fatal("empty passphrase accepted")
	}
	if err := Write(agent, path, "pw"); err != nil {
		t.Fatal(err)
	}
	if err := Write(agent, path, "pw"); err == nil || !strings.Contains(err.Error(), "exists already") {
		t.Fatalf("overwrote: %v", err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode())
	}
	env := envOf(map[string]string{api.EnvPassphrase: "pw"})
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
		{Credentials{AgentKeystore: path, Address: connAddr, Getenv: envOf(map[string]string{api.EnvPassphrase: "pw", api.EnvPrivateKey: connKeyHex})}, "unset"},
		{Credentials{AgentKeystore: path, Address: agent.Address(), Getenv: env}, "not the account"},
		{Credentials{AgentKeystore: path, Address: connAddr, Getenv: envOf(map[string]string{api.EnvPassphrase: "wrong"})}, "wrong passphrase"},
	} {
		if _, err := LoadSigner(c.cr); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cr.Address, err, c.want)
		}
	}
}
