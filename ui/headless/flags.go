package headless

import (
	"github.com/spf13/pflag"
	"github.com/tradedesk/tradedesk/api/text"
)

// group is a set of shared flags a command takes. Each shared flag is declared once, here; a
// command names the groups it takes, so its help lists only flags it accepts.
type group uint

const (
	// gEndpoint: --url, --network, --insecure, --action-type, --profile, --config (every command
	// that connects).
	gEndpoint group = 1 << iota
	// gKey: --keystore, the account's own key.
	gKey
	// gAgent: --agent-keystore and --account: an agent wallet trading for an account (orders,
	// cancels, leverage), or, alone, the account to read.
	gAgent
	// gWatch: --address, an account to read without its key.
	gWatch
	// gUser: --user, the account a read shows.
	gUser
	// gJSON: --json.
	gJSON
	// gExpiry: --expiry-window, how long the orders and cancels a command signs stay valid.
	gExpiry
)

// The groups of the kinds of command.
const (
	// reads take every way of naming the account.
	gRead = gEndpoint | gKey | gAgent | gWatch | gUser | gJSON
	// market reads need no account.
	gMarket = gEndpoint | gJSON
	// agentTrades are what an agent key may sign: orders, cancels, leverage.
	gAgentTrade = gEndpoint | gKey | gAgent | gJSON | gExpiry
	// ownerTrades need the account's own key: money movements, agents, broker approvals.
	gOwnerTrade = gEndpoint | gKey | gJSON
)

// SharedFlag is the annotation of a shared flag (declared by a group, not by the command): the
// help lists them apart from the command's own.
const SharedFlag = "tradedesk-shared"

// flagSet is a command's flags with the groups it takes.
type flagSet struct {
	*pflag.FlagSet
	groups group
}

func (fs *flagSet) has(g group) bool { return fs.groups&g != 0 }

// AddConnectionFlags declares the connection flags on fs, bound to c: --url, --network,
// --insecure, --action-type, and, when account is true, --keystore, --agent-keystore, --account
// and --address. The console (ui/cli) takes them all; the commands take their groups of them.
func AddConnectionFlags(fs *pflag.FlagSet, c *Connection, account bool) {
	g := gEndpoint
	if account {
		g |= gKey | gAgent | gWatch
	}
	addConnection(&flagSet{FlagSet: fs, groups: g}, c)
	markShared(fs)
}

// markShared annotates every flag declared on fs so far as shared (SharedFlag), in the order
// declared: a sorted visit would sort a set still growing, once more for every command of every
// command line (the help and longDashes sort the whole set when they need it).
func markShared(fs *pflag.FlagSet) {
	sorted := fs.SortFlags
	fs.SortFlags = false
	fs.VisitAll(func(f *pflag.Flag) { _ = fs.SetAnnotation(f.Name, SharedFlag, []string{"yes"}) })
	fs.SortFlags = sorted
}

func addConnection(fs *flagSet, c *Connection) {
	if fs.has(gEndpoint) {
		fs.StringVar(&c.URL, "url", "", "exchange API base `URL` (plain http:// only for loopback unless --insecure)")
		fs.text(&c.Network, "network", "NAME", "exchange network: mainnet or testnet")
		fs.BoolVar(&c.Insecure, "insecure", false, "allow a plain http:// URL that is not loopback")
		fs.text(&c.ActionType, "action-type", "FORM", "how requests name their action: number (the official SDKs' form; default on mainnet and testnet) or name (the spec's; default on a custom --url)")
		fs.text(&c.Profile, "profile", "NAME", "the config file's [profile.NAME]: its account, key, guard, risk and alerts over the top level's, and its own journal")
	}
	if fs.has(gKey) {
		fs.StringVar(&c.Keystore, "keystore", "", "encrypted V3 keystore `FILE` with the account's key (passphrase asked, or $TRADEDESK_PASSPHRASE)")
	}
	if fs.has(gAgent) {
		fs.StringVar(&c.AgentKeystore, "agent-keystore", "", "encrypted V3 keystore `FILE` of an agent wallet (tradedesk agent add): orders and cancels for --account, never withdrawals")
		fs.StringVar(&c.Address, "account", "", "the account `0x...` an --agent-keystore acts for (alone: the account to read)")
	}
	if fs.has(gWatch) {
		fs.StringVar(&c.Address, "address", "", "account `0x...` to read without its key")
	}
}

// addShared declares the shared flags of the command's groups.
func addShared(fs *flagSet, o *opts) {
	addConnection(fs, &o.conn)
	if fs.has(gEndpoint) {
		fs.StringVar(&o.config, "config", "", "config `FILE` (default $XDG_CONFIG_HOME/tradedesk/config.toml)")
	}
	if fs.has(gUser) {
		fs.StringVar(&o.user, "user", "", "account `0x...` to show (default: the key's, --account's or --address's)")
	}
	if fs.has(gExpiry) {
		fs.DurationVar(&o.expiry, "expiry-window", 0, "how long after it is signed an order or cancel stays valid, its expiresAfter (`D`, 1s to 24h; default 60s): a lost answer is settled once it has passed")
		SetFlagRange(fs.FlagSet, "expiry-window", "1s to 24h")
	}
	if fs.has(gJSON) {
		fs.BoolVar(&o.json, "json", false, "print the raw records as JSON (a failure: {\"outcome\",\"exit_code\",\"error\"})")
	}
}

// withDefaults fills the connection the flags left unset from the config file (Env.LoadDefaults
// with --config, else Env.Defaults). A flag on the command line replaces the config's choice:
// --url drops the config's network and --network its URL. What a command does not take is not
// taken from the config either: tickers load no key.
func (r *runner) withDefaults() error {
	d := r.env.Defaults
	if r.env.LoadDefaults != nil {
		var err error
		if d, err = r.env.LoadDefaults(r.o.config, r.o.conn.Profile); err != nil {
			return usageError{err.Error()}
		}
	} else if r.o.conn.Profile != "" && d.Profile != r.o.conn.Profile {
		return usagef("--profile %s: no config file is read here", text.Quote(r.o.conn.Profile))
	}
	c := MergeConnection(r.o.conn, d, func(name string) bool { return r.explicit[name] })
	g := r.cmd.groups
	if g&gKey == 0 {
		c.Keystore = ""
	}
	if g&gAgent == 0 {
		c.AgentKeystore = ""
	}
	r.o.conn = c
	return nil
}

// named is a text flag whose help names its value by a placeholder (--side SIDE, not
// --side string).
type named struct {
	p    *string
	name string
}

// String implements pflag.Value.
func (n named) String() string { return *n.p }

// Set implements pflag.Value.
func (n named) Set(s string) error { *n.p = s; return nil }

// Type implements pflag.Value: the placeholder the help shows.
func (n named) Type() string { return n.name }

// TextVar declares a text flag whose help shows its value as placeholder (SYM, SIDE, ...).
func TextVar(fs *pflag.FlagSet, p *string, name, placeholder, def, usage string) {
	*p = def
	fs.Var(named{p, placeholder}, name, usage)
}

// text declares a text flag with a placeholder on the command's flags.
func (fs *flagSet) text(p *string, name, placeholder, usage string) {
	TextVar(fs.FlagSet, p, name, placeholder, "", usage)
}
