package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestTheOtherProfilesOpenBesideTheFirst (issue #42): started on profile a, the console opens
// every other profile of the config from its own table (b, c), each with its own exchange and
// executor; the connection flags given for a are not carried to them.
func TestTheOtherProfilesOpenBesideTheFirst(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	cfg := writeConfig(t, "[profile.a]\nwatchlist = [\"BTC-PERP\"]\n[profile.b]\nwatchlist = [\"ETH-PERP\"]\n[profile.c]\nwatchlist = [\"SOL-PERP\"]\n", 0o600)
	all, err := loadConfig(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var o options
	o.Config, o.Profile, o.Seed = cfg, "a", 9
	var errs bytes.Buffer
	cfgs, closeAll := openOtherProfiles(t.Context(), o, all, &errs, func(string) string { return "" })
	defer closeAll()
	if len(cfgs) != 2 || cfgs[0].Profile != "b" || cfgs[1].Profile != "c" || errs.Len() != 0 {
		t.Fatalf("opened %d profiles, stderr %q", len(cfgs), errs.String())
	}
	for _, c := range cfgs {
		if c.Exec == nil || c.Exchange == nil || strings.Join(c.Watchlist, ",") == "BTC-PERP" {
			t.Fatalf("profile %s: exec %v, watchlist %v", c.Profile, c.Exec != nil, c.Watchlist)
		}
	}
	if cfgs[0].Exchange.Address() == cfgs[1].Exchange.Address() {
		t.Fatal("profiles b and c share an account")
	}
}
