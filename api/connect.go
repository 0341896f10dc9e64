package api

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
)

// Endpoint is where a front end is asked to connect: --url or --network, and --insecure.
type Endpoint struct {
	URL      string
	Network  string
	Insecure bool // allow plain http:// to a host that is not loopback
	// ActionType is how action.type is written: "" or "auto" (the number on mainnet and
	// testnet, the spec's name elsewhere), "number" or "name".
	ActionType string
}

// Resolved is a checked Endpoint: the base URL, the network its actions are signed for (nil for an
// exchange that is neither mainnet nor testnet) and a name for it (the network's, or the host's).
type Resolved struct {
	Base       string
	Network    *Network
	Name       string
	ActionType ActionTypeForm
}

// Options are the client options the resolved endpoint asks for.
func (r Resolved) Options() []Option {
	opts := []Option{WithActionType(r.ActionType), WithRequestBudget(DefaultBudget)}
	if r.Network != nil {
		opts = append(opts, WithNetwork(*r.Network))
	}
	return opts
}

// ErrNoExchange is returned by ResolveEndpoint when neither a URL nor a network is given.
var ErrNoExchange = errors.New("no exchange: give --url URL or --network mainnet|testnet")

// ResolveEndpoint checks an endpoint, the one rule every front end connects by: exactly one of
// URL and network; a URL must be https, or plain http only to this machine unless Insecure (signed
// orders must not cross a network unencrypted); a URL that is a known network's URL signs for
// that network.
func ResolveEndpoint(e Endpoint) (Resolved, error) {
	form, err := ParseActionTypeForm(e.ActionType)
	if err != nil {
		return Resolved{}, err
	}
	r, err := resolveBase(e)
	r.ActionType = form
	return r, err
}

func resolveBase(e Endpoint) (Resolved, error) {
	switch {
	case e.URL != "" && e.Network != "":
		return Resolved{}, errors.New("give --url or --network, not both (the config file's url or network counts)")
	case e.URL == "" && e.Network == "":
		return Resolved{}, ErrNoExchange
	case e.Network != "":
		n, err := LookupNetwork(e.Network)
		if err != nil {
			return Resolved{}, err
		}
		return Resolved{Base: n.URL, Network: &n, Name: n.Name}, nil
	}
	u, err := CheckURL(e.URL, e.Insecure)
	if err != nil {
		return Resolved{}, err
	}
	for _, n := range Networks() {
		if strings.TrimRight(n.URL, "/") == strings.TrimRight(e.URL, "/") {
			return Resolved{Base: e.URL, Network: &n, Name: n.Name}, nil
		}
	}
	return Resolved{Base: e.URL, Name: u.Host}, nil
}

// CheckURL accepts an absolute https URL, and plain http only to a loopback host unless insecure.
func CheckURL(raw string, insecure bool) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("--url %s: want an absolute http:// or https:// URL like https://api.example.com/", text.Quote(raw))
	}
	if u.Scheme == "https" || insecure || isLoopbackHost(u.Hostname()) {
		return u, nil
	}
	return nil, fmt.Errorf("--url %s is plain http to a host that is not loopback: signed orders would cross the network unencrypted; use https, or pass --insecure if you mean it", text.Quote(u.Redacted()))
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
