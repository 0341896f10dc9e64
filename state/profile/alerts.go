package profile

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"github.com/tradedesk/tradedesk/state/alert"
)

// AlertTable is one [[alert]] table: a rule in the alert grammar (state/alert's Grammar), seeded
// into the journal's alert definitions on start.
type AlertTable struct {
	Rule string `toml:"rule"`
}

// AlertRules parses the [[alert]] tables.
func (f File) AlertRules() ([]alert.Rule, error) {
	out := make([]alert.Rule, 0, len(f.Alerts))
	for i, a := range f.Alerts {
		r, err := alert.Parse(a.Rule)
		if err != nil {
			return nil, fmt.Errorf("config [[alert]] number %d: %w", i+1, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// AlertDelivery checks on_alert (an argument list: a program's absolute path, then its
// arguments, never a shell string) and alert_webhook (https, or http to this machine).
func (f File) AlertDelivery() error {
	if len(f.OnAlert) > 0 {
		if err := alert.CheckCommand(f.OnAlert); err != nil {
			return fmt.Errorf("config on_alert: %w", err)
		}
	}
	if f.AlertWebhook != "" {
		if err := CheckWebhook(f.AlertWebhook); err != nil {
			return fmt.Errorf("config alert_webhook: %w", err)
		}
	}
	return nil
}

// CheckWebhook accepts an https URL, or http to a loopback address (a local relay).
func CheckWebhook(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return errors.New("want a URL such as \"https://hooks.example.com/tradedesk\"")
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return nil
	case "http":
		host := u.Hostname()
		if ip := net.ParseIP(host); host == "localhost" || ip != nil && ip.IsLoopback() {
			return nil
		}
		return errors.New("http only to this machine (127.0.0.1, ::1, localhost); use https for anything else")
	}
	return errors.New("want an https URL (or http to 127.0.0.1)")
}
