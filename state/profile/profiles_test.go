package profile

import (
	"strings"
	"testing"
)

const twoProfiles = `network = "testnet"
account = "0xaaa"
keystore = "top.json"
theme = "light"
[guard]
max_notional = "1000"
max_price_distance = "0.1"
[profile.a]
account = "0xa1"
[profile.b]
url = "http://127.0.0.1:9/"
account = "0xb1"
agent_keystore = "b-agent.json"
[profile.b.guard]
max_notional = "50"
[profile.b.risk]
max_open_orders = 3
`

// TestTwoProfilesOverTheTopLevel: each profile's settings replace the top level's, a table's one
// by one; url replaces network and agent_keystore replaces keystore whole; "" is the top level.
func TestTwoProfilesOverTheTopLevel(t *testing.T) {
	f, err := loadText(t, twoProfiles)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(f.Names(), ","); got != "a,b" {
		t.Fatalf("names %q", got)
	}
	a, err := f.Select("a")
	if err != nil {
		t.Fatal(err)
	}
	if a.Account != "0xa1" || a.Network != "testnet" || a.Keystore != "top.json" || a.Guard.MaxNotional != "1000" || a.Theme != "light" {
		t.Fatalf("profile a: %+v", a)
	}
	b, err := f.Select("b")
	if err != nil {
		t.Fatal(err)
	}
	if b.URL != "http://127.0.0.1:9/" || b.Network != "" || b.Account != "0xb1" || b.AgentKeystore != "b-agent.json" || b.Keystore != "" {
		t.Fatalf("profile b connection: %+v", b)
	}
	if b.Guard.MaxNotional != "50" || b.Guard.MaxPriceDistance != "0.1" || b.Risk.MaxOpenOrders != "3" || b.Profiles != nil {
		t.Fatalf("profile b tables: %+v %+v", b.Guard, b.Risk)
	}
	top, _ := f.Select("")
	if top.Account != "0xaaa" || top.Guard.MaxNotional != "1000" {
		t.Fatalf("top level: %+v", top)
	}
}

// TestProfileMistakes: an unknown profile names the known ones; a bad name, an unknown setting
// in a profile, key material, nesting and two keys are refused saying what to fix.
func TestProfileMistakes(t *testing.T) {
	f, err := loadText(t, twoProfiles)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Select("c"); err == nil || !strings.Contains(err.Error(), "known: a, b") {
		t.Fatalf("unknown profile: %v", err)
	}
	if _, err := (File{}).Select("c"); err == nil || !strings.Contains(err.Error(), "no [profile.NAME] tables") {
		t.Fatalf("no profiles: %v", err)
	}
	for body, want := range map[string]string{
		"[profile.\"b c\"]\naccount = \"0x1\"":                  "letters, digits, _ and - only",
		"[profile.b]\nacount = \"0x1\"":                         `unknown setting "profile.b.acount"`,
		"[profile.b]\nprivate_key = \"0x1\"":                    "looks like key material",
		"[profile.b.profile.c]\naccount = \"0x1\"":              "profiles do not nest",
		"keystore = \"k\"\n[profile.b]\nagent_keystore = \"a\"": "",
		"[profile.b]\nkeystore = \"k\"\nagent_keystore = \"a\"": "both set",
	} {
		_, err := loadText(t, body)
		if want == "" {
			if err != nil {
				t.Errorf("%q: %v", body, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
	if !strings.Contains(Known(), "[profile.NAME]") {
		t.Errorf("Known: %s", Known())
	}
}
