package headless

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/exec"
	"github.com/tradedesk/tradedesk/state/funds"
	"github.com/tradedesk/tradedesk/state/journal"
	"golang.org/x/term"
)

func moneyFlags(fs *flagSet, o *opts) {
	fs.text(&o.collateral, "collateral", "SYM", "collateral symbol or id, e.g. USDC")
	fs.text(&o.amount, "amount", "N", "amount to move, e.g. 10")
	TextVar(fs.FlagSet, &o.from, "from", "BALANCE", "spot", "balance to take it from: spot or derivative")
	fs.BoolVar(&o.yes, "yes", false, "send it without asking (needed when stdin is not a terminal)")
	fs.BoolVar(&o.dryRun, "dry-run", false, "check it and print what would move, but do not send it")
}

func transferFlags(fs *flagSet, o *opts) {
	moneyFlags(fs, o)
	fs.StringVar(&o.to, "to", "", "send to another account `0x...`")
	fs.BoolVar(&o.toDerivatives, "to-derivatives", false, "move from your spot balance to your derivative balance")
	fs.BoolVar(&o.toSpot, "to-spot", false, "move from your derivative balance to your spot balance")
}

// chainFlag is the --chain flag, read with funds.ParseChain (an id or a name).
type chainFlag struct{ o *opts }

// String implements pflag.Value (no default is shown).
func (c chainFlag) String() string { return "" }

// Type implements pflag.Value: the value's name in the help.
func (c chainFlag) Type() string { return "ID" }

// Set implements pflag.Value.
func (c chainFlag) Set(s string) error {
	id, err := funds.ParseChain(s)
	if err != nil {
		return err
	}
	c.o.chain = id
	return nil
}

func withdrawFlags(fs *flagSet, o *opts) {
	moneyFlags(fs, o)
	fs.Var(chainFlag{o}, "chain", "chain `ID` (or name) to withdraw to: one of the collateral's enabled bridges")
}

func init() {
	register(&command{name: "transfer", trades: true, groups: gOwnerTrade, flags: transferFlags, run: runTransfer,
		usage:   "--collateral SYM --amount N (--to ADDRESS [--from spot|derivative] | --to-derivatives | --to-spot) [--yes] [--dry-run]",
		summary: "Move collateral to another account, or between your own spot and derivative balances."})
	register(&command{name: "withdraw", trades: true, groups: gOwnerTrade, flags: withdrawFlags, run: runWithdraw,
		usage:   "--collateral SYM --amount N --chain ID [--from spot|derivative] [--yes] [--dry-run]",
		summary: "Withdraw collateral to your address on a chain the collateral is bridged to."})
}

// fromSpot reads --from.
func (r *runner) fromSpot() (bool, error) {
	switch strings.ToLower(strings.TrimSpace(r.o.from)) {
	case "spot":
		return true, nil
	case "derivative", "derivatives", "perp", "perps":
		return false, nil
	}
	return false, usagef("--from %s: want spot or derivative", text.Quote(r.o.from))
}

func (r *runner) transferOp() (funds.Op, error) {
	o := r.o
	n := 0
	for _, set := range []bool{o.to != "", o.toDerivatives, o.toSpot} {
		if set {
			n++
		}
	}
	if n != 1 {
		return 0, usagef("give exactly one of --to ADDRESS, --to-derivatives or --to-spot")
	}
	switch {
	case o.toDerivatives:
		return funds.ToDerivative, nil
	case o.toSpot:
		return funds.ToSpot, nil
	}
	spot, err := r.fromSpot()
	if spot {
		return funds.SpotTransfer, err
	}
	return funds.DerivativeTransfer, err
}

func runTransfer(ctx context.Context, r *runner) error {
	op, err := r.transferOp()
	if err != nil {
		return err
	}
	return r.move(ctx, funds.Request{Op: op, Collateral: r.o.collateral, Amount: r.o.amount, Destination: r.o.to})
}

func runWithdraw(ctx context.Context, r *runner) error {
	spot, err := r.fromSpot()
	if err != nil {
		return err
	}
	if r.o.chain == 0 {
		return usagef("--chain is required: the chain id (or name) to withdraw to; `tradedesk collateral` lists each collateral's chains")
	}
	op := funds.DerivativeWithdraw
	if spot {
		op = funds.SpotWithdraw
	}
	return r.move(ctx, funds.Request{Op: op, Collateral: r.o.collateral, Amount: r.o.amount, Chain: r.o.chain})
}

// move checks a transfer or withdrawal with state/funds and sends it.
func (r *runner) move(ctx context.Context, req funds.Request) error {
	if strings.TrimSpace(req.Collateral) == "" {
		return usagef("--collateral is required, e.g. USDC")
	}
	if strings.TrimSpace(req.Amount) == "" {
		return usagef("--amount is required, e.g. 10")
	}
	if _, fe := funds.AmountForm(req.Amount); fe != nil {
		return usagef("--amount: %s", fe.Msg)
	}
	coll, err := r.client.SupportedCollateral(ctx, "all")
	if err != nil {
		return err
	}
	acct, err := r.client.AccountSummary(ctx, r.client.Address())
	if err != nil {
		return err
	}
	bal := funds.BalancesOf(acct)
	bal.Account = r.client.Address()
	checked, errs := funds.Check(req, coll, bal)
	if len(errs) > 0 {
		return errors.New(req.Op.String() + " refused, nothing sent: " + oneLine(funds.Errors(errs).Error()))
	}
	if send, err := r.confirmMove(checked); !send || err != nil {
		return err
	}
	e, done, err := r.recoveredExecutor(ctx)
	if err != nil {
		return err
	}
	defer done()
	res, err := checked.Do(ctx, e, r.client, exec.Ask{Who: journal.WhoHeadless})
	if err != nil {
		return err
	}
	return r.actDone(res, req.Op.String()+" not made", "the "+req.Op.String(), "check `tradedesk account` before sending it again",
		append(checked.Confirm(), "done")...)
}

// moveJSON is a movement's preview as --dry-run --json prints it.
type moveJSON struct {
	Operation   string `json:"operation"`
	Collateral  string `json:"collateral"`
	Amount      string `json:"amount"`
	Fee         string `json:"fee"`
	Leaves      string `json:"leaves"`  // amount and fee: what leaves the balance
	Arrives     string `json:"arrives"` // what the destination receives
	Destination string `json:"destination,omitempty"`
	ChainID     int64  `json:"chain_id,omitempty"`
	Sent        bool   `json:"sent"`
	Outcome     string `json:"outcome"` // the exit table's word
}

// confirmMove shows what a movement will do and decides whether to send it: never with --dry-run,
// at once with --yes, else only when the trader types yes on the terminal. Money is never moved
// by a command that was not told to.
func (r *runner) confirmMove(c funds.Checked) (bool, error) {
	if r.o.dryRun && r.o.json {
		j := moveJSON{Operation: c.Op.String(), Collateral: c.Collateral.Symbol, Amount: c.Amount.String(), Fee: c.Fee.String(),
			Leaves: c.Total().String(), Arrives: c.Receive().String(), Destination: c.Destination, Outcome: OutcomeWord(ExitOK)}
		if c.Op.Withdraws() {
			j.Destination, j.ChainID = c.Account, int64(c.Bridge.BridgeChainID)
		}
		return false, writeJSON(r.env.Stdout, j)
	}
	if r.o.yes && !r.o.dryRun {
		return true, nil
	}
	for _, l := range c.Confirm() {
		fmt.Fprintln(r.env.Stdout, text.Clean(l))
	}
	if r.o.dryRun {
		_, err := fmt.Fprintln(r.env.Stdout, "not sent (--dry-run)")
		return false, err
	}
	ask := r.env.Confirm
	if ask == nil {
		ask = terminalConfirm(r.env.Stdin, r.env.Stderr)
	}
	if ask == nil {
		return false, fmt.Errorf("%s not sent: add --yes to send it (or run this on a terminal to confirm it by typing yes)", c.Op)
	}
	ok, err := ask("type yes to send this " + c.Op.String() + ": ")
	if err != nil {
		return false, fmt.Errorf("%s not sent: %w", c.Op, err)
	}
	if !ok {
		return false, fmt.Errorf("%s not sent: not confirmed", c.Op)
	}
	return true, nil
}

// terminalConfirm is a prompt on the terminal when stdin is one, nil otherwise.
func terminalConfirm(in io.Reader, prompt io.Writer) func(string) (bool, error) {
	f, ok := in.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return func(p string) (bool, error) {
		fmt.Fprint(prompt, p)
		line, err := bufio.NewReader(f).ReadString('\n')
		if err != nil && line == "" {
			return false, err
		}
		return strings.TrimSpace(line) == "yes", nil
	}
}
