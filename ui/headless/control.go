package headless

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/keyfile"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/profile"
)

// DefaultAgentValidity is how long `agent add` registers an agent for unless --valid says.
const DefaultAgentValidity = 30 * 24 * time.Hour

func agentAddFlags(fs *flagSet, o *opts) {
	fs.text(&o.agentName, "name", "NAME", "the agent's name, shown by agent list (e.g. desk-bot)")
	fs.StringVar(&o.valid, "valid", "30d", "how long the agent may trade: `30d`, 12h, ... (at most 180d)")
	fs.StringVar(&o.out, "out", "", "new `FILE` to write the agent's encrypted V3 keystore to (never overwritten)")
}

func agentRevokeFlags(fs *flagSet, o *opts) {
	fs.StringVar(&o.agent, "agent", "", "the agent's address `0x...`")
}

func leverageFlags(fs *flagSet, o *opts) {
	fs.text(&o.instrument, "instrument", "SYM", "perpetual to set the leverage of (name or id)")
	fs.IntVar(&o.leverage, "leverage", 0, "the new leverage, a whole number such as 10 (left out: read the leverage in force)")
	fs.BoolVar(&o.dryRun, "dry-run", false, "show what the change does to the margin, but do not send it")
}

func brokerFlags(fs *flagSet, o *opts) {
	fs.StringVar(&o.broker, "broker", "", "the broker's address `0x...`")
	fs.BoolVar(&o.yes, "yes", false, "confirm: without it the command only says what it would sign")
}

func brokerApproveFlags(fs *flagSet, o *opts) {
	brokerFlags(fs, o)
	fs.StringVar(&o.maxFeeRate, "max-fee-rate", "", "the most the broker may charge, as a fraction (`0.001` is 0.1%) or a percent (0.1%)")
}

func init() {
	parents["agent"] = "Agent wallets: keys that place and cancel orders for your account, never withdraw or transfer."
	register(&command{name: "agent add", groups: gOwnerTrade, flags: agentAddFlags, run: runAgentAdd,
		usage: "--name NAME [--valid 30d] --out FILE",
		summary: "Make a fresh agent key, register it to place and cancel orders for your account (it can never\n" +
			"withdraw or transfer) and write it to its own encrypted keystore FILE (passphrase asked, or\n" +
			"$TRADEDESK_PASSPHRASE); trade with --agent-keystore FILE --account 0xACCOUNT. Needs the account's own key."})
	register(&command{name: "agent list", groups: gRead, run: runAgentList,
		usage: "[--user ADDR]", summary: "List the agents registered for an account (default: yours) and how long each has left."})
	register(&command{name: "agent revoke", groups: gOwnerTrade, flags: agentRevokeFlags, run: runAgentRevoke,
		usage: "--agent ADDR", summary: "Revoke an agent: its next request is refused. Needs the account's own key."})
	register(&command{name: "leverage", trades: true, groups: gAgentTrade, flags: leverageFlags, run: runLeverage,
		usage:   "--instrument SYM [--leverage N [--dry-run]]",
		summary: "Read your leverage on a perpetual (no --leverage), or set it; setting says the margin it frees or needs, and refuses a change that would leave the account under margin."})
	parents["broker"] = "Broker fee approvals: approve a broker to charge fees up to a rate on your orders, or withdraw it."
	register(&command{name: "broker approve", trades: true, groups: gOwnerTrade, flags: brokerApproveFlags, run: runBrokerApprove,
		usage: "--broker ADDR --max-fee-rate RATE --yes", summary: "Approve a broker to charge fees up to a rate on your orders."})
	register(&command{name: "broker revoke", trades: true, groups: gOwnerTrade, flags: brokerFlags, run: runBrokerRevoke,
		usage: "--broker ADDR --yes", summary: "Withdraw a broker's fee approval."})
}

func runAgentAdd(ctx context.Context, r *runner) error    { return r.agentAdd(ctx) }
func runAgentList(ctx context.Context, r *runner) error   { return r.agentList(ctx) }
func runAgentRevoke(ctx context.Context, r *runner) error { return r.agentRevoke(ctx) }

// needAccountKey refuses what only the account's own key may sign, before anything is signed.
func (r *runner) needAccountKey(what string) error {
	switch {
	case r.signer == nil && r.watching != "":
		return usagef("%s signs nothing: %s", what, r.watching)
	case r.signer == nil:
		return usagef("%s needs the account's key: --keystore FILE or TRADEDESK_PRIVATE_KEY", what)
	}
	if r.signer.IsAgent() {
		return usagef("%s needs the account's own key, not an agent's (nothing was signed): give --keystore FILE or TRADEDESK_PRIVATE_KEY", what)
	}
	return nil
}

// longHexRun reports whether s holds 12 or more hex digits in a row.
func longHexRun(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' {
			if n++; n >= 12 {
				return true
			}
			continue
		}
		n = 0
	}
	return false
}

// parseValidity reads --valid: a number of days ("30d") or a Go duration ("12h").
func parseValidity(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	var d time.Duration
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.Atoi(days)
		if err != nil {
			return 0, usagef("--valid %s: want days such as 30d, or hours such as 12h", text.Quote(s))
		}
		if n < 0 || n > int(api.MaxAgentValidity/(24*time.Hour)) {
			// Checked before multiplying: 213504d times a day wraps round to 25 minutes.
			return 0, usagef("--valid %s: want from 1m to 180d", text.Quote(s))
		}
		d = time.Duration(n) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(s); err != nil {
			return 0, usagef("--valid %s: want days such as 30d, or hours such as 12h", text.Quote(s))
		}
	}
	if d < time.Minute || d > api.MaxAgentValidity {
		return 0, usagef("--valid %s: want from 1m to 180d", text.Quote(s))
	}
	return d, nil
}

// newPassphrase is the agent keystore's passphrase: $TRADEDESK_PASSPHRASE, else asked twice.
func (r *runner) newPassphrase(file string) (string, error) {
	if p := r.env.Getenv(api.EnvPassphrase); p != "" {
		return p, nil
	}
	ask := r.env.Passphrase
	if ask == nil {
		ask = api.AskPassphrase
	}
	p, err := ask("new passphrase for the agent keystore " + file + ": ")
	if err != nil {
		return "", err
	}
	again, err := ask("the same passphrase again: ")
	if err != nil {
		return "", err
	}
	if p != again {
		return "", usagef("the two passphrases differ; nothing was written or registered")
	}
	return p, nil
}

// agentAdd makes a fresh agent key, writes it encrypted to --out, then registers it. The file
// is written first, so a registered agent's key is never lost; a refused registration removes it.
func (r *runner) agentAdd(ctx context.Context) error {
	if err := r.needAccountKey("agent add"); err != nil {
		return err
	}
	o := r.o
	if strings.TrimSpace(o.agentName) == "" {
		return usagef("agent add needs --name NAME (e.g. desk-bot)")
	}
	if o.out == "" {
		return usagef("agent add needs --out FILE: where the agent's encrypted keystore is written")
	}
	// A key pasted into --name or --out would be sent to the exchange or become a file name
	// printed back: refuse anything with a long run of hex digits, without repeating it.
	if longHexRun(o.agentName) || longHexRun(filepath.Base(o.out)) {
		return usagef("--name and --out must not hold a long run of hex digits (that looks like key material); choose a plain name such as desk-bot and agent.json")
	}
	ttl, err := parseValidity(o.valid)
	if err != nil {
		return err
	}
	if _, err := os.Stat(o.out); err == nil {
		return usagef("--out %s exists already: an existing key file is never overwritten", text.Quote(o.out))
	}
	pass, err := r.newPassphrase(o.out)
	if err != nil {
		return err
	}
	agent, err := api.NewRandomSigner()
	if err != nil {
		return err
	}
	if err := keyfile.Write(agent, o.out, pass); err != nil {
		return err
	}
	until := r.env.Now().Add(ttl)
	resp, err := r.registerAgent(ctx, agent, until)
	if err != nil {
		return err
	}
	if r.o.json {
		return writeJSON(r.env.Stdout, map[string]any{"outcome": OutcomeWord(ExitOK), "agent": agent.Address(), "account": r.client.Address(), "name": o.agentName,
			"valid_until": until.UnixMilli(), "keystore": o.out, "tx_hash": resp.TxHash})
	}
	fmt.Fprintf(r.env.Stdout, "agent %s %s registered for %s until %s (tx %s)\n", agent.Address(), text.Quote(o.agentName),
		r.client.Address(), until.UTC().Format("2006-01-02 15:04 UTC"), text.Clean(resp.TxHash))
	fmt.Fprintf(r.env.Stdout, "its key is encrypted in %s; it can place and cancel orders, never withdraw or transfer\n", o.out)
	_, err = fmt.Fprintf(r.env.Stdout, "trade with: tradedesk --agent-keystore %s --account %s%s\n", shellWord(o.out), r.client.Address(), r.endpointFlags())
	return err
}

// registerAgent sends the addAgent of agent through the executor. One not registered has its key
// file removed; one whose answer was lost and not found keeps it.
func (r *runner) registerAgent(ctx context.Context, agent *api.Signer, until time.Time) (api.TxResponse, error) {
	o := r.o
	res, err := r.act(ctx, exec.ActAgent, fmt.Sprintf("approve agent %s %s until %s", agent.Address(), o.agentName, until.UTC().Format(time.RFC3339)),
		func(ctx context.Context) (api.TxResponse, error) {
			return r.client.AddAgent(ctx, agent, o.agentName, until)
		})
	if err != nil || res.Kind != exec.Done && res.Kind != exec.Unknown {
		os.Remove(o.out) // nothing registered it: its key is of no use
	}
	if err != nil {
		return api.TxResponse{}, err
	}
	if err := actFailed(res, "agent not registered (the key file was removed)", "the registration",
		fmt.Sprintf("`tradedesk agent list` shows whether %s was registered; its key is in %s", agent.Address(), o.out)); err != nil {
		return api.TxResponse{}, err
	}
	return actResp(res), nil
}

// endpointFlags are the exchange flags this command ran with, written as flags (" --url URL",
// " --network NAME", " --insecure", " --action-type FORM"), so a printed command line that
// is pasted reaches the same exchange.
func (r *runner) endpointFlags() string {
	c := r.o.conn
	var b strings.Builder
	if c.URL != "" {
		b.WriteString(" --url " + shellWord(c.URL))
	}
	if c.Network != "" {
		b.WriteString(" --network " + shellWord(c.Network))
	}
	if c.Insecure {
		b.WriteString(" --insecure")
	}
	if c.ActionType != "" {
		b.WriteString(" --action-type " + shellWord(c.ActionType))
	}
	return b.String()
}

// shellWord quotes s for a POSIX shell when it holds anything but plain path and URL characters.
func shellWord(s string) string {
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./:@%+=,~", c)) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}

func (r *runner) agentRevoke(ctx context.Context) error {
	if err := r.needAccountKey("agent revoke"); err != nil {
		return err
	}
	a, err := api.ChecksumAddress(r.o.agent)
	if err != nil {
		return usagef("agent revoke needs --agent 0xADDRESS: %v", err)
	}
	res, err := r.act(ctx, exec.ActAgent, "revoke agent "+a, func(ctx context.Context) (api.TxResponse, error) { return r.client.RevokeAgent(ctx, a) })
	if err != nil {
		return err
	}
	return r.actDone(res, "agent "+a+" not revoked", "the revocation of agent "+a, "`tradedesk agent list` shows whether it is still listed",
		"agent "+a+" revoked: its next request is refused")
}

func (r *runner) agentList(ctx context.Context) error {
	user, err := r.account()
	if err != nil {
		return err
	}
	agents, err := r.client.Agents(ctx, user)
	if err != nil {
		return err
	}
	if r.o.json {
		return writeJSON(r.env.Stdout, agents)
	}
	if len(agents) == 0 {
		_, err := fmt.Fprintf(r.env.Stdout, "no agents registered for %s\n", user)
		return err
	}
	t := newTable("AGENT", "NAME", "VALID UNTIL", "LEFT")
	now := r.env.Now()
	for _, a := range agents {
		t.add(text.Clean(a.Address), text.Clean(a.Name), a.ValidUntil.UTC().Format("2006-01-02 15:04 UTC"), state.AgentLeft(a.ValidUntil.Time, now))
	}
	return t.write(r.env.Stdout)
}

func runLeverage(ctx context.Context, r *runner) error {
	if r.o.leverage == 0 && r.explicit["leverage"] {
		return usagef("--leverage 0: give a whole number from 1, such as 10, or leave --leverage out to read the leverage")
	}
	if r.o.leverage == 0 {
		return runLeverageRead(ctx, r)
	}
	in, err := r.findInstrument(ctx)
	if err != nil {
		return err
	}
	st, err := r.orderStore(ctx, in.Name)
	if err != nil {
		return err
	}
	c, err := st.CheckLeverage(in.Name, int64(r.o.leverage))
	if err != nil {
		return err
	}
	line := fmt.Sprintf("leverage on %s: %sx -> %sx (tier maximum %sx); %s", in.Name, c.Current, c.New, c.Max, c.Effect())
	if c.Err != "" {
		return fmt.Errorf("leverage change refused, nothing sent: %s", c.Err)
	}
	if r.o.dryRun {
		_, err := fmt.Fprintln(r.env.Stdout, line+" (dry run: nothing sent)")
		return err
	}
	res, err := r.act(ctx, exec.ActLeverage, fmt.Sprintf("leverage on %s %sx -> %sx", in.Name, c.Current, c.New),
		func(ctx context.Context) (api.TxResponse, error) {
			return r.client.UpdateLeverage(ctx, in.ID, r.o.leverage)
		})
	if err != nil {
		return err
	}
	return r.actDone(res, "leverage on "+in.Name+" not changed", "the leverage change on "+in.Name,
		"`tradedesk leverage --instrument "+in.Name+"` reads the leverage in force", line)
}

func runBrokerApprove(ctx context.Context, r *runner) error { return runBroker(ctx, r, "approve") }

func runBrokerRevoke(ctx context.Context, r *runner) error { return runBroker(ctx, r, "revoke") }

// runBroker is broker approve and broker revoke (sub).
func runBroker(ctx context.Context, r *runner, sub string) error {
	if err := r.needAccountKey("broker " + sub); err != nil {
		return err
	}
	b, err := api.ChecksumAddress(r.o.broker)
	if err != nil {
		return usagef("broker %s needs --broker 0xADDRESS: %v", sub, err)
	}
	rate, what := "0", "withdraw the fee approval of broker "+b
	if sub == "approve" {
		if rate, err = state.ParseFeeRate(r.o.maxFeeRate); err != nil {
			return usagef("--max-fee-rate: %v", err)
		}
		what = fmt.Sprintf("approve broker %s to charge fees up to %s", b, state.FeeRateText(rate))
	}
	if !r.o.yes {
		return usagef("this would %s; add --yes to sign it", what)
	}
	res, err := r.act(ctx, exec.ActBroker, what, func(ctx context.Context) (api.TxResponse, error) { return r.client.ApproveBrokerFee(ctx, b, rate) })
	if err != nil {
		return err
	}
	return r.actDone(res, "could not "+what, "the request to "+what, "`tradedesk broker list` shows the approvals", "done: "+what)
}

// checkAgent, when the command signs with an agent key, looks the agent up in the account's
// allAgents: one the exchange does not list (expired, revoked) stops the command before anything
// is signed; one with less than a day left gets a warning on stderr. An exchange that cannot say
// lets the command go on (the exchange refuses an unknown signer itself).
func (r *runner) checkAgent(ctx context.Context) error {
	if r.signer == nil || !r.signer.IsAgent() || strings.HasPrefix(r.cmd.name, "agent ") {
		return nil
	}
	check, _, err := profile.CheckAgent(ctx, r.client, r.client.Address(), r.signer.Address(), r.env.Now())
	if err != nil {
		return err
	}
	if check.Warning != "" {
		fmt.Fprintf(r.env.Stderr, "tradedesk: warning: %s\n", check.Warning)
	}
	return nil
}
