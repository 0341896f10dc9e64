package headless

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/state"
)

// completeWait bounds how long completing an instrument name waits for the exchange.
const completeWait = 3 * time.Second

// instrumentsCache is the file in the state directory that holds the last instrument names the
// exchange gave, one a line: completion offers them when the exchange cannot be reached.
const instrumentsCache = "instruments"

// fixedChoices are the values some flags take, offered by shell completion.
var fixedChoices = map[string][]string{
	"side":        {"buy", "sell"},
	"tif":         {"GTC\tgood till cancelled", "IOC\timmediate or cancel", "FOK\tfill or kill"},
	"tpsl":        {"tp\ttake profit", "sl\tstop loss"},
	"network":     {"mainnet", "testnet"},
	"action-type": {"number", "name"},
	"format":      {"csv", "json"},
	"from":        {"spot", "derivative"},
}

// Completing reports whether args run the hidden command the completion scripts call
// (cobra.ShellCompRequestCmd, or its twin without descriptions): the one run that needs the
// flags' completions (Env.Completion).
func Completing(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// registerCompletions gives the command's flags their completions: fixed choices, and instrument
// names from the exchange (the connection flags typed so far, and the config file) or, when it
// cannot be reached, from the last list it gave.
func registerCompletions(cc *cobra.Command, c *command, o *opts, env *Env) {
	cc.Flags().VisitAll(func(f *pflag.Flag) {
		if choices, ok := fixedChoices[f.Name]; ok {
			_ = cc.RegisterFlagCompletionFunc(f.Name, cobra.FixedCompletions(choices, cobra.ShellCompDirectiveNoFileComp))
		}
	})
	if cc.Flags().Lookup("instrument") != nil {
		_ = cc.RegisterFlagCompletionFunc("instrument", func(cmd *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
			return completeInstruments(cmd, c, o, env), cobra.ShellCompDirectiveNoFileComp
		})
	}
}

// completeInstruments lists the instrument names: fresh from the exchange (and cached), else cached.
func completeInstruments(cmd *cobra.Command, c *command, o *opts, env *Env) []string {
	dir := StateDir(env)
	names, err := fetchInstrumentNames(cmd.Context(), cmd, c, o, env)
	if err != nil {
		return readInstrumentCache(dir)
	}
	_ = writeInstrumentCache(dir, names)
	return names
}

// fetchInstrumentNames asks the exchange the command line names (no key is loaded) for its
// instruments.
func fetchInstrumentNames(ctx context.Context, cmd *cobra.Command, c *command, o *opts, env *Env) ([]string, error) {
	r := &runner{env: *env, cmd: c, o: *o, explicit: map[string]bool{}}
	cmd.Flags().Visit(func(f *pflag.Flag) { r.explicit[f.Name] = true })
	if err := r.withDefaults(); err != nil {
		return nil, err
	}
	conn := r.o.conn
	ep, err := api.ResolveEndpoint(api.Endpoint{URL: conn.URL, Network: conn.Network, Insecure: conn.Insecure, ActionType: conn.ActionType})
	if err != nil {
		return nil, err
	}
	opts := ep.Options()
	if env.HTTPClient != nil {
		opts = append(opts, api.WithHTTPClient(env.HTTPClient))
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, completeWait)
	defer cancel()
	ins, err := api.New(ep.Base, opts...).Instruments(ctx, "all")
	if err != nil {
		return nil, err
	}
	st := state.New(env.Now)
	st.Apply(state.InstrumentsMsg{Instruments: ins})
	var names []string
	for _, in := range st.Instruments() {
		if plainName(in.Name) {
			names = append(names, in.Name)
		}
	}
	if len(names) == 0 {
		return nil, errors.New("no instruments")
	}
	return names, nil
}

// plainName accepts an instrument name a shell may be given: a server's name with anything else
// in it (a control character, a space, a quote) is never offered.
var plainName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$`).MatchString

// StateDir is where tradedesk keeps what it learns between runs: Env.StateDir, else
// $XDG_STATE_HOME/tradedesk, else ~/.local/state/tradedesk ("" when there is no home).
func StateDir(env *Env) string {
	if env.StateDir != "" {
		return env.StateDir
	}
	if d := env.Getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "tradedesk")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".local", "state", "tradedesk")
}

func writeInstrumentCache(dir string, names []string) error {
	if dir == "" {
		return errors.New("no state directory")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, instrumentsCache), []byte(strings.Join(names, "\n")+"\n"))
}

// readInstrumentCache is the cached list (nothing when there is none); a line that is not a plain
// name (the file was edited) is skipped.
func readInstrumentCache(dir string) []string {
	if dir == "" {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(dir, instrumentsCache))
	if err != nil {
		return nil
	}
	var names []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); plainName(l) {
			names = append(names, l)
		}
	}
	return names
}
