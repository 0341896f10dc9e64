package ui

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"github.com/tradedesk/tradedesk/ui/components/pagedlist"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/keyfile"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// secretForms are the ways a leaked key could be spelled: its hex (any case, with or without 0x:
// every 16-character window, so a truncated key is caught too), its bytes, their base64, and
// the 8-byte words a stack trace would print.
func secretForms(t testing.TB, keyHex string) (hexWindows []string, raw [][]byte) {
	t.Helper()
	k := strings.ToLower(strings.TrimPrefix(keyHex, "0x"))
	for i := 0; i+16 <= len(k); i++ {
		hexWindows = append(hexWindows, k[i:i+16])
	}
	b, err := hex.DecodeString(k)
	if err != nil {
		t.Fatal(err)
	}
	raw = append(raw, b, []byte(base64.StdEncoding.EncodeToString(b)), []byte(base64.RawURLEncoding.EncodeToString(b)))
	for i := 0; i+8 <= len(b); i += 8 {
		raw = append(raw, []byte(fmt.Sprintf("0x%x", binary.LittleEndian.Uint64(b[i:i+8]))),
			[]byte(fmt.Sprintf("0x%x", binary.BigEndian.Uint64(b[i:i+8]))))
	}
	return hexWindows, raw
}

// findSecret lists the forms of the key data holds.
func findSecret(t testing.TB, keyHex string, data []byte) []string {
	t.Helper()
	windows, raw := secretForms(t, keyHex)
	var found []string
	lower := strings.ToLower(string(data))
	for _, w := range windows {
		if strings.Contains(lower, w) {
			found = append(found, "hex "+w[:6]+"…")
			break
		}
	}
	for _, r := range raw {
		if bytes.Contains(data, r) {
			found = append(found, "bytes")
			break
		}
	}
	return found
}

// assertNoSecret fails for every capture that holds the key in any of its forms.
func assertNoSecret(t testing.TB, keyHex string, captures map[string][]byte) {
	t.Helper()
	for name, data := range captures {
		if found := findSecret(t, keyHex, data); len(found) > 0 {
			t.Errorf("%s holds the key (%s)", name, strings.Join(found, ", "))
		}
	}
}

// TestSecretsScannerFinds: the scanner itself catches each form of a leak.
func TestSecretsScannerFinds(t *testing.T) {
	t.Parallel()
	b, _ := hex.DecodeString(testKeyHex)
	for name, leak := range map[string]string{
		"hex":       "key=" + testKeyHex,
		"upper 0x":  "0X" + strings.ToUpper(testKeyHex),
		"truncated": "signer " + testKeyHex[20:40] + "…",
		"bytes":     "raw " + string(b),
		"base64":    base64.StdEncoding.EncodeToString(b),
		"trace":     fmt.Sprintf("main.sign(0x%x, 0x1)", binary.LittleEndian.Uint64(b[8:16])),
	} {
		if len(findSecret(t, testKeyHex, []byte(leak))) == 0 {
			t.Errorf("the scanner misses a leak spelled as %s", name)
		}
	}
	if found := findSecret(t, testKeyHex, []byte("0x2c7536E3605D9C16a7a3D7b1898e529396a65c23 "+testKeyHex[:15])); len(found) > 0 {
		t.Errorf("the scanner finds %v in an address and 15 hex digits", found)
	}
}

// TestNoSecretInAnythingWritten runs a session with a known key, captures everything tradedesk
// writes (screens after many actions and errors, the JSON log at debug level, exported files,
// headless commands' stdout and stderr, errors for bad keys, the clients' formatting, a stack
// dump) and finds the key in none of it. It sets the process's log and export directory, so it
// runs in its own process (ownProcess).
func TestNoSecretInAnythingWritten(t *testing.T) {
	if !ownProcess(t) {
		return
	}
	dir := t.TempDir()
	logFile, err := os.OpenFile(filepath.Join(dir, "tradedesk.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	oldLog, oldExport := slog.Default(), pagedlist.ExportDir
	slog.SetDefault(slog.New(slog.NewJSONHandler(logFile, &slog.HandlerOptions{Level: slog.LevelDebug})))
	pagedlist.ExportDir = filepath.Join(dir, "exports")
	t.Cleanup(func() { slog.SetDefault(oldLog); pagedlist.ExportDir = oldExport })
	if err := os.Mkdir(pagedlist.ExportDir, 0o700); err != nil {
		t.Fatal(err)
	}

	captures := map[string][]byte{}
	l := &lossy{}
	c := newSimConsoleVia(t, 200, 60, false, func(h http.Handler) http.Handler { l.h = h; return l })
	shot := 0
	snap := func(what string) {
		shot++
		captures[fmt.Sprintf("screen %02d (%s)", shot, what)] = []byte(c.m.View())
	}
	secretsConsoleSession(t, c, l, snap)
	secretsAgentConsole(t, captures)
	agentKey := secretsHeadless(t, dir, captures)
	secretsErrors(t, captures)

	buf := make([]byte, 1<<20)
	captures["stack dump of every goroutine"] = buf[:runtime.Stack(buf, true)]
	if err := logFile.Close(); err != nil {
		t.Fatal(err)
	}
	files := 0
	err = filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		files++
		captures["file "+strings.TrimPrefix(path, dir)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 3 || len(captures["file /tradedesk.log"]) == 0 {
		t.Fatalf("the session wrote %d files (log %d bytes): it tested too little", files, len(captures["file /tradedesk.log"]))
	}
	assertNoSecret(t, testKeyHex, captures)
	// No key of either kind: the agent's keys too (the console's fixed one, and the one
	// `agent add` made and wrote encrypted).
	assertNoSecret(t, testAgentKeyHex, captures)
	assertNoSecret(t, agentKey, captures)
}

// secretsAgentConsole runs a console holding only an agent key: its screens after a refused
// withdrawal and a refused leverage change.
func secretsAgentConsole(t *testing.T, captures map[string][]byte) {
	c, _ := agentConsole(t, 12*time.Hour)
	pump(t, c.m, c.m.Init())
	captures["agent console start"] = []byte(c.m.View())
	c.key(t, "8", "w")
	c.typeText(t, "10")
	c.key(t, "enter", "enter")
	captures["agent console withdrawal refused"] = []byte(c.m.View() + c.m.shownNotice())
	c.key(t, "esc", "2", "L")
	captures["agent console leverage refused"] = []byte(c.m.View() + c.m.shownNotice())
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x"} {
		captures["agent client formatted "+verb] = []byte(fmt.Sprintf(verb, c.m.ex))
	}
}

// secretsConsoleSession drives the console through orders, a lost answer, rejections, cancels,
// the kill switch, help, exports and a narrow screen, taking a screen capture after each.
func secretsConsoleSession(t *testing.T, c *simConsole, l *lossy, snap func(string)) {
	pump(t, c.m, c.m.Init())
	snap("start")
	f := c.m.form
	field := func(i orderentry.Field, text string) {
		f.Focus(i)
		f.SetValue(i, "")
		c.typeText(t, text)
	}
	tk, _ := c.m.store.Ticker("BTC-PERP")
	c.key(t, "4")
	field(orderentry.FieldInstrument, "BTC-PERP")
	field(orderentry.FieldPrice, tk.MarkPrice.Mul(decimal.RequireFromString("0.98")).Round(0).String())
	field(orderentry.FieldSize, "0.001")
	c.key(t, "enter")
	snap("order confirmation")
	c.key(t, "enter")
	snap("order placed")
	l.act = true
	l.drop.Store(true)
	c.key(t, "enter", "enter")
	snap("lost answer looked up")
	field(orderentry.FieldSize, "x1e9")
	c.key(t, "enter")
	snap("invalid size")
	f.SetOrderType("market")
	field(orderentry.FieldSize, "50")
	c.key(t, "enter")
	snap("big market order")
	c.key(t, "esc", "esc", "3", "x", "enter")
	snap("cancel")
	c.press(t, ctrlK)
	snap("kill switch confirmation")
	c.key(t, "enter")
	snap("kill switch done")
	c.key(t, "?")
	snap("help")
	c.key(t, "?", "7", "e")
	snap("fills exported")
	c.key(t, "]", "e")
	snap("history exported")
	l.act = false
	l.drop.Store(true)
	c.press(t, ctrlK)
	c.key(t, "enter")
	snap("kill switch lost")
	c.m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	snap("narrow")
}

// secretsHeadless runs headless commands against a simulator with the key in the environment,
// successes and failures, and keeps their output.
func secretsHeadless(t *testing.T, dir string, captures map[string][]byte) (agentKeyHex string) {
	srv := httptest.NewServer(fundedSim(t, sim.WithSeed(3))) // on the real clock, as the commands sign with it
	t.Cleanup(srv.Close)
	url := srv.URL
	env := map[string]string{api.EnvPrivateKey: "0x" + testKeyHex}
	n := 0
	run := func(args ...string) {
		n++
		var out, errb bytes.Buffer
		// The journal goes under dir too, so its files are scanned with the rest.
		code := runHeadless(context.Background(), append(args, "--url", url),
			headless.Env{Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return env[k] }, StateDir: dir})
		name := fmt.Sprintf("%02d %s", n, strings.Join(args, " "))
		captures["headless "+name+" stdout"] = out.Bytes()
		captures["headless "+name+" stderr"] = errb.Bytes()
		if code == headless.ExitUsage && errb.Len() == 0 {
			t.Errorf("%s: usage error without a message", name)
		}
	}
	for _, args := range [][]string{
		{"account"}, {"account", "--json"}, {"orders", "--json"}, {"positions"}, {"fills", "--json"}, {"history"},
		{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.001", "--price", "1"},
		{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "abc", "--price", "1"},
		{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.001", "--market", "--json"},
		{"order", "--instrument", "BTC-PERP", "--side", "sell", "--size", "0.001", "--market", "--reduce-only"},
		{"cancel", "--instrument", "BTC-PERP", "--oid", "1"},
		{"cancel-all", "--yes"},
		{"transfer", "--collateral", "USDC", "--amount", "1000000000", "--to-spot"},
		{"export", "fills", "--format", "csv", "--output", filepath.Join(dir, "fills.csv")},
		{"export", "history", "--format", "json", "--output", filepath.Join(dir, "history.json")},
		{"nonsense"},
	} {
		run(args...)
	}
	agentKeyHex = secretsAgentCommands(t, dir, env, run)
	for _, bad := range []string{testKeyHex[:63], testKeyHex + "00", "0x" + testKeyHex[:62] + "zz", "0x0x" + testKeyHex} {
		env[api.EnvPrivateKey] = bad
		run("account")
		if e := captures[fmt.Sprintf("headless %02d account stderr", n)]; !strings.Contains(string(e), "private key") {
			t.Errorf("a malformed key in the environment: stderr %q does not say what is wrong", e)
		}
	}
	return agentKeyHex
}

// secretsAgentCommands makes an agent with agent add, trades and is refused with only its
// keystore, revokes it, and returns the agent's key (read back from its keystore).
func secretsAgentCommands(t *testing.T, dir string, env map[string]string, run func(args ...string)) string {
	// The agent's keystore at scrypt N 16, P 1: what is looked for is the key in what is written,
	// not the cost of its derivation, and each of the commands below opens it (at geth's light
	// N 4096, P 6, most of this test's time under -race).
	old := keyfile.Scrypt
	keyfile.Scrypt.N, keyfile.Scrypt.P = 1<<4, 1
	defer func() { keyfile.Scrypt = old }()
	env[api.EnvPassphrase] = "agent pass"
	file := filepath.Join(dir, "agent.json")
	run("agent", "add", "--name", "desk", "--valid", "2d", "--out", file)
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("agent add wrote no keystore: %v", err)
	}
	k, err := keystore.DecryptKey(raw, "agent pass")
	if err != nil {
		t.Fatal(err)
	}
	agentHex := hex.EncodeToString(crypto.FromECDSA(k.PrivateKey))
	owner, _ := api.SignerFromHex(testKeyHex)
	as := []string{"--agent-keystore", file, "--account", owner.Address()}
	accountKey := env[api.EnvPrivateKey]
	delete(env, api.EnvPrivateKey)
	run(append([]string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.001", "--price", "1"}, as...)...)
	run(append([]string{"withdraw", "--collateral", "USDC", "--amount", "1", "--chain", "1", "--yes"}, as...)...)
	run(append([]string{"leverage", "--instrument", "BTC-PERP", "--leverage", "5"}, as...)...)
	run(append([]string{"agent", "list", "--json"}, as...)...)
	run(append([]string{"order", "--instrument", "BTC-PERP", "--side", "buy", "--size", "0.001", "--price", "1"}, as[:2]...)...)
	env[api.EnvPrivateKey] = accountKey
	run("agent", "revoke", "--agent", k.Address.Hex())
	delete(env, api.EnvPrivateKey)
	run(append([]string{"cancel-all", "--yes"}, as...)...) // refused: 401 invalid order signer
	env[api.EnvPrivateKey] = accountKey
	delete(env, api.EnvPassphrase)
	return agentHex
}

// secretsErrors keeps the errors for malformed keys and every formatting of the signer and
// client.
func secretsErrors(t *testing.T, captures map[string][]byte) {
	for i, bad := range []string{testKeyHex[:63], testKeyHex + "0", "0x" + testKeyHex[:62] + "zz", strings.ToUpper(testKeyHex) + "!"} {
		if _, err := api.SignerFromHex(bad); err != nil {
			captures[fmt.Sprintf("bad key error %d", i)] = []byte(err.Error())
		} else {
			t.Errorf("bad key %d accepted", i)
		}
	}
	signer, err := api.SignerFromHex(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	client := api.New("http://127.0.0.1:1/", api.WithSigner(signer))
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%x", "%q"} {
		captures["signer formatted "+verb] = []byte(fmt.Sprintf(verb, signer))
		captures["client formatted "+verb] = []byte(fmt.Sprintf(verb, client))
	}
	_, err = client.AccountSummary(context.Background(), client.Address())
	captures["error of a request to a closed port"] = []byte(fmt.Sprint(err))
}
