package launch

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/google/uuid"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/keyfile"
	"github.com/tradedesk/tradedesk/ui"
	"github.com/tradedesk/tradedesk/ui/headless"
)

func TestConnectChoosesModeAndKey(t *testing.T) {
	const keyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	const addr = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
	ctx := context.Background()
	t.Setenv("TRADEDESK_PRIVATE_KEY", "")
	os.Unsetenv("TRADEDESK_PRIVATE_KEY")

	// An address alone watches read-only.
	var stderr bytes.Buffer
	c, err := Connect(ctx, options{Connection: headless.Connection{URL: "http://127.0.0.1:1/", Address: addr}}, &stderr, KeyEnv{})
	if err != nil || c.Mode != ui.ModeReadOnly || c.Client.CanTrade() || c.ReadOnly == "" {
		t.Fatalf("address only: %+v, %v", c, err)
	}

	// A key from the environment trades; on mainnet it warns, and never prints the key.
	t.Setenv("TRADEDESK_PRIVATE_KEY", keyHex)
	stderr.Reset()
	c, err = Connect(ctx, options{Connection: headless.Connection{Network: "mainnet"}}, &stderr, KeyEnv{})
	if err != nil || c.Mode != ui.ModeLive || !c.Client.CanTrade() || c.Client.Address() != addr {
		t.Fatalf("env key: %+v, %v", c, err)
	}
	if !strings.Contains(stderr.String(), "MAINNET") || strings.Contains(stderr.String(), keyHex[8:24]) {
		t.Errorf("mainnet env-key warning: %q", stderr.String())
	}

	// A bad key is refused with a message that does not repeat it.
	t.Setenv("TRADEDESK_PRIVATE_KEY", "0x1234nothex")
	if _, err := Connect(ctx, options{Connection: headless.Connection{Network: "testnet"}}, &stderr, KeyEnv{}); err == nil || strings.Contains(err.Error(), "1234nothex") {
		t.Errorf("bad env key: %v", err)
	}

	// Keystore and address need an exchange; a plain-http remote URL is refused.
	os.Unsetenv("TRADEDESK_PRIVATE_KEY")
	if _, err := Connect(ctx, options{Connection: headless.Connection{Address: addr}}, &stderr, KeyEnv{}); err == nil || !strings.Contains(err.Error(), "--network") {
		t.Errorf("address without exchange: %v", err)
	}
	if _, err := Connect(ctx, options{Connection: headless.Connection{URL: "http://exchange.example.com/"}}, &stderr, KeyEnv{}); err == nil || !strings.Contains(err.Error(), "--insecure") {
		t.Errorf("remote http: %v", err)
	}
	if _, err := Connect(ctx, options{Connection: headless.Connection{Network: "moonnet"}}, &stderr, KeyEnv{}); err == nil {
		t.Error("unknown network accepted")
	}
}

func TestConnectWithKeystore(t *testing.T) {
	const keyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	os.Unsetenv("TRADEDESK_PRIVATE_KEY")
	pk, err := crypto.HexToECDSA(keyHex)
	if err != nil {
		t.Fatal(err)
	}
	blob, err := keystore.EncryptKey(&keystore.Key{Id: uuid.New(), Address: crypto.PubkeyToAddress(pk.PublicKey), PrivateKey: pk},
		"correct horse", keystore.LightScryptN, keystore.LightScryptP)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "key.json")
	if err := os.WriteFile(path, blob, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TRADEDESK_PASSPHRASE", "correct horse")
	c, err := Connect(context.Background(), options{Connection: headless.Connection{URL: "http://127.0.0.1:1/", Keystore: path}}, &bytes.Buffer{}, KeyEnv{})
	if err != nil || !c.Client.CanTrade() || c.Mode != ui.ModeLive {
		t.Fatalf("keystore: %+v, %v", c, err)
	}
	t.Setenv("TRADEDESK_PASSPHRASE", "wrong")
	if _, err := Connect(context.Background(), options{Connection: headless.Connection{URL: "http://127.0.0.1:1/", Keystore: path}}, &bytes.Buffer{}, KeyEnv{}); err == nil || !strings.Contains(err.Error(), "passphrase") {
		t.Errorf("wrong passphrase: %v", err)
	}
	t.Setenv("TRADEDESK_PASSPHRASE", "correct horse")
	if _, err := Connect(context.Background(), options{Connection: headless.Connection{URL: "http://127.0.0.1:1/", Keystore: path, Address: "0x00000000000000000000000000000000000000aa"}}, &bytes.Buffer{}, KeyEnv{}); err == nil || !strings.Contains(err.Error(), "not the keystore's address") {
		t.Errorf("mismatched address: %v", err)
	}
}

// TestConsoleClientKeepsConnections: the client connect builds for an exchange URL reuses its
// connections across rounds of concurrent requests, as the console's polls make them.
func TestConsoleClientKeepsConnections(t *testing.T) {
	var conns atomic.Int64
	srv := httptest.NewUnstartedServer(fundedSim(t))
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	t.Setenv("TRADEDESK_PRIVATE_KEY", "")
	os.Unsetenv("TRADEDESK_PRIVATE_KEY")
	c, err := Connect(context.Background(), options{Connection: headless.Connection{URL: srv.URL + "/", Address: "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"}}, &bytes.Buffer{}, KeyEnv{})
	if err != nil {
		t.Fatal(err)
	}
	// The client's request budget paces them: more rounds only take longer. Four are enough: with
	// the default two idle connections kept per host, each round after the first opens six anew.
	const rounds, perRound = 4, 8
	for range rounds {
		var wg sync.WaitGroup
		for range perRound {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := c.Client.Ticker(context.Background(), "all"); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	if n := conns.Load(); n > 2*perRound {
		t.Errorf("%d requests opened %d connections: they are not kept alive", rounds*perRound, n)
	}
}

// TestConsoleAgentKeystore: the console's connect with --agent-keystore and --account acts for
// the account and knows the agent's expiry; an agent the exchange does not list stops the start
// with what to do; without --account it says it is needed.
func TestConsoleAgentKeystore(t *testing.T) {
	old := keyfile.Scrypt
	keyfile.Scrypt.N, keyfile.Scrypt.P = keystore.LightScryptN, keystore.LightScryptP
	t.Cleanup(func() { keyfile.Scrypt = old })
	t.Setenv("TRADEDESK_PRIVATE_KEY", "")
	t.Setenv("TRADEDESK_PASSPHRASE", "agent pass")
	s := fundedSim(t)
	srv := httptest.NewServer(s)
	defer srv.Close()
	owner, _ := api.SignerFromHex("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
	account := api.New(srv.URL, api.WithSigner(owner))
	agent, _ := api.NewRandomSigner()
	file := filepath.Join(t.TempDir(), "agent.json")
	if err := keyfile.Write(agent, file, "agent pass"); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	o := options{Connection: headless.Connection{URL: srv.URL, AgentKeystore: file, Address: owner.Address()}}
	// The headless commands' wording (profile.CheckAgent): one message for both front ends.
	if _, err := Connect(context.Background(), o, &stderr, KeyEnv{}); err == nil || !strings.Contains(err.Error(), "is not registered for") || !strings.Contains(err.Error(), "nothing was signed") {
		t.Fatalf("unregistered agent: %v", err)
	}
	until := time.Now().Add(48 * time.Hour)
	if _, err := account.AddAgent(context.Background(), agent, "console", until); err != nil {
		t.Fatal(err)
	}
	conn, err := Connect(context.Background(), o, &stderr, KeyEnv{})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if conn.Client.Address() != owner.Address() || !conn.Client.IsAgent() || conn.AgentUntil.UnixMilli() != until.UnixMilli() {
		t.Fatalf("connected as %s agent %v until %v", conn.Client.Address(), conn.Client.IsAgent(), conn.AgentUntil)
	}
	o.Address = ""
	if _, err := Connect(context.Background(), o, &stderr, KeyEnv{}); err == nil || !strings.Contains(err.Error(), "--account") {
		t.Fatalf("no --account: %v", err)
	}
}
