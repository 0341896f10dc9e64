package api

import (
	"strings"
	"testing"
)

const (
	connKeyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	connAddr   = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
	otherAddr  = "0x00000000000000000000000000000000000000aa"
)

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
