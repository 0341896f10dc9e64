// Package profile is the trader's profile: the config file every front end reads (the console,
// the headless commands), with its endpoint, key source, fat-finger guard, cadences and display
// settings, parsed and checked once. It never holds a key: key material in the file is refused.
package profile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// File is the config file. Every setting's name is its toml tag; an unknown one is an error.
type File struct {
	Network string `toml:"network"`
	URL     string `toml:"url"`
	// ActionType is how requests name their action: "number", "name" or "auto" (see api.ActionTypeForm).
	ActionType string `toml:"action_type"`
	Account    string `toml:"account"`
	Keystore   string `toml:"keystore"`
	// AgentKeystore is an agent wallet's keystore (with Account: the account it trades for).
	AgentKeystore string              `toml:"agent_keystore"`
	Theme         string              `toml:"theme"`
	Watchlist     []string            `toml:"watchlist"`
	FillBell      *bool               `toml:"fill_bell"`
	Stream        *bool               `toml:"stream"` // false: poll only, as --no-stream
	Poll          Poll                `toml:"poll"`
	Guard         Guard               `toml:"guard"`
	Keys          map[string][]string `toml:"keys"`
	Depth         Depth               `toml:"depth"`
	Alerts        []AlertTable        `toml:"alert"`         // [[alert]] tables
	OnAlert       []string            `toml:"on_alert"`      // a program and its arguments, given each alert as JSON
	AlertWebhook  string              `toml:"alert_webhook"` // https (or http to loopback): each alert POSTed as JSON
	Risk          Risk                `toml:"risk"`
	OnRestart     OnRestart           `toml:"on_restart"` // per kind, what a start does with an algorithm left running
	DeadMan       DeadMan             `toml:"dead_man"`   // the guard's dead-man's switch at start
	// Profiles are the [profile.NAME] tables: the same settings, for one named account; Select
	// lays one over the top level.
	Profiles map[string]File `toml:"profile"`
}

// Known lists the config file's settings, read from File's own tags so the list never misses
// one (it once left out fill_bell): top-level names, then [tables].
func Known() string {
	var plain, tables []string
	t := reflect.TypeFor[File]()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if f.Type == reflect.TypeFor[map[string]File]() {
			tables = append(tables, "["+name+".NAME]")
		} else if f.Type.Kind() == reflect.Slice && f.Type.Elem().Kind() == reflect.Struct {
			tables = append(tables, "[["+name+"]]")
		} else if f.Type.Kind() == reflect.Struct || f.Type.Kind() == reflect.Map {
			tables = append(tables, "["+name+"]")
		} else {
			plain = append(plain, name)
		}
	}
	return strings.Join(append(plain, tables...), ", ")
}

// keyLikeNames are config keys that would hold key material; the config file refuses them.
var keyLikeNames = []string{"private_key", "privatekey", "key", "secret", "passphrase", "password", "mnemonic", "seed_phrase"}

// DefaultPath is $XDG_CONFIG_HOME/tradedesk/config.toml (~/.config when unset; "" when there is
// no home).
func DefaultPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "tradedesk", "config.toml")
}

// Load reads the config file (path, or DefaultPath when it exists; none is an empty File).
// Unknown keys and key material are errors; a file readable by others gets a warning on warn.
func Load(path string, warn io.Writer) (File, error) {
	var cfg File
	explicit := path != ""
	if !explicit {
		path = DefaultPath()
	}
	if path == "" {
		return cfg, nil
	}
	st, err := os.Stat(path)
	if err != nil {
		if !explicit && errors.Is(err, os.ErrNotExist) {
			return cfg, nil
		}
		return cfg, fmt.Errorf("config: %w", err)
	}
	if st.Mode().Perm()&0o044 != 0 && warn != nil {
		fmt.Fprintf(warn, "tradedesk: warning: config %s is readable by other users (mode %s); chmod 600 it\n", path, st.Mode().Perm())
	}
	md, err := toml.DecodeFile(path, &cfg)
	if err != nil {
		return cfg, fmt.Errorf("config %s: %w", path, err)
	}
	undecoded := md.Undecoded()
	for _, k := range undecoded {
		name := strings.ToLower(k.String())
		if len(k) > 2 && k[0] == "profile" {
			name = strings.ToLower(toml.Key(k[2:]).String())
		}
		for _, bad := range keyLikeNames {
			if strings.HasSuffix(name, bad) && !strings.HasPrefix(name, "keys.") {
				return cfg, fmt.Errorf("config %s: %q looks like key material; the config file never holds a key: remove it and use --keystore FILE (or $%s)", path, k.String(), api.EnvPrivateKey)
			}
		}
	}
	if len(undecoded) > 0 {
		return cfg, fmt.Errorf("config %s: unknown setting %s; known: %s", path, text.Quote(undecoded[0].String()), Known())
	}
	if cfg.Keystore != "" && cfg.AgentKeystore != "" {
		return cfg, fmt.Errorf("config %s: keystore and agent_keystore are both set: keep the one this config signs with (agent_keystore with account)", path)
	}
	if err := cfg.checkProfiles(); err != nil {
		return cfg, fmt.Errorf("config %s: %w", path, err)
	}
	return cfg, nil
}

// Check parses every table (poll, guard, depth, the alerts and their delivery), so a bad value is refused when the file is
// read, whichever front end reads it.
func (f File) Check() error {
	if _, err := f.Poll.Intervals(); err != nil {
		return err
	}
	if _, err := f.Guard.Guard(); err != nil {
		return err
	}
	if _, _, err := f.Depth.Settings(); err != nil {
		return err
	}
	if _, err := f.AlertRules(); err != nil {
		return err
	}
	if _, err := f.Risk.Limits(); err != nil {
		return err
	}
	if _, err := f.OnRestart.Choices(); err != nil {
		return err
	}
	if _, err := f.DeadMan.Span(); err != nil {
		return err
	}
	return f.AlertDelivery()
}
