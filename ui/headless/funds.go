package headless

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/state/funds"
)

func moneyFlags(fs *flag.FlagSet, o *opts) {
	fs.StringVar(&o.collateral, "collateral", "", "collateral symbol or id, e.g. USDC")
	fs.StringVar(&o.amount, "amount", "", "amount to move, e.g. 10")
	fs.StringVar(&o.from, "from", "spot", "balance to take it from: spot or derivative")
}

func transferFlags(fs *flag.FlagSet, o *opts) {
	moneyFlags(fs, o)
	fs.StringVar(&o.to, "to", "", "send to another account `0x...`")
	fs.BoolVar(&o.toDerivatives, "to-derivatives", false, "move from your spot balance to your derivative balance")
	fs.BoolVar(&o.toSpot, "to-spot", false, "move from your derivative balance to your spot balance")
}

// chainFlag is the --chain flag, read with funds.ParseChain (an id or a name).
type chainFlag struct{ o *opts }

// String implements flag.Value (no default is shown).
func (c chainFlag) String() string { return "" }

// Set implements flag.Value.
func (c chainFlag) Set(s string) error {
	id, err := funds.ParseChain(s)
	if err != nil {
		return err
	}
	c.o.chain = id
	return nil
}

func withdrawFlags(fs *flag.FlagSet, o *opts) {
	moneyFlags(fs, o)
	fs.Var(chainFlag{o}, "chain", "chain `ID` (or name) to withdraw to: one of the collateral's enabled bridges")
}

func init() {
	register(&command{name: "transfer", trades: true, flags: transferFlags, run: runTransfer,
		usage:   "--collateral SYM --amount N (--to ADDRESS [--from spot|derivative] | --to-derivatives | --to-spot)",
		summary: "Move collateral to another account, or between your own spot and derivative balances."})
	register(&command{name: "withdraw", trades: true, flags: withdrawFlags, run: runWithdraw,
		usage:   "--collateral SYM --amount N --chain ID [--from spot|derivative]",
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
		return errors.New(req.Op.String() + " rejected, nothing sent: " + oneLine(funds.Errors(errs).Error()))
	}
	resp, err := checked.Send(ctx, r.client)
	if err != nil {
		if api.IsAmbiguous(err) {
			return fmt.Errorf("the answer to the %s was lost (%v): check `tradedesk account` before sending it again", req.Op, err)
		}
		return fmt.Errorf("%s not made: %w", req.Op, err)
	}
	if r.o.json {
		return writeJSON(r.env.Stdout, resp)
	}
	for _, l := range checked.Confirm() {
		fmt.Fprintln(r.env.Stdout, l)
	}
	_, err = fmt.Fprintf(r.env.Stdout, "done (tx %s)\n", text.Clean(resp.TxHash))
	return err
}
