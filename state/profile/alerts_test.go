package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func loadText(t *testing.T, body string) (File, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Load(p, nil)
	if err != nil {
		return f, err
	}
	return f, f.Check()
}

func TestAlertTablesSeedRules(t *testing.T) {
	f, err := loadText(t, `on_alert = ["/usr/local/bin/page-me", "--urgent"]
alert_webhook = "http://127.0.0.1:9000/hook"
[[alert]]
rule = "btc > 100000"
[[alert]]
rule = "eth liq < 5%"
`)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := f.AlertRules()
	if err != nil || len(rs) != 2 || rs[1].Canon() != "ETH liq < 5%" || len(f.OnAlert) != 2 {
		t.Fatalf("%+v %v", rs, err)
	}
	if !strings.Contains(Known(), "[[alert]]") {
		t.Errorf("Known: %s", Known())
	}
}

func TestBadAlertSettingsSayWhatToFix(t *testing.T) {
	for body, want := range map[string]string{
		"[[alert]]\nrule = \"btc >> \"\n":                 "[[alert]] number 1",
		"on_alert = \"notify-send hi\"\n":                 "on_alert",
		"on_alert = [\"notify-send\"]\n":                  "absolute path",
		"alert_webhook = \"http://hooks.example.com/\"\n": "http only to this machine",
		"alert_webhook = \"ftp://x/\"\n":                  "https",
	} {
		if _, err := loadText(t, body); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want %q", body, err, want)
		}
	}
}
