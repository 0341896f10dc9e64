package headless

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// Exit statuses: one table for every command (ExitTable has it in words, for --help and the
// README). 1 and 2 keep the meanings they had before the table (refused, usage); the codes a script
// must tell apart after something was sent are their own.
const (
	ExitOK = 0
	// ExitRefused: refused before anything was signed or sent: a check (the order, the funds, the
	// leverage, the fat-finger guard without --yes), a key that would not load, a file that
	// could not be written.
	ExitRefused = 1
	// ExitUsage: the command line is wrong (a flag, an argument, a missing value): nothing was sent.
	ExitUsage = 2
	// ExitRejected: the exchange answered and refused the request.
	ExitRejected = 3
	// ExitUnknown: sent, outcome unknown: the answer was lost and looking it up (an order, by its
	// cloid) did not settle it. Check before sending it again.
	ExitUnknown = 4
	// ExitUnavailable: the network or the exchange is unavailable (no connection, timeout, 5xx,
	// 429, an unreadable answer); nothing was done, or a lost order was looked up and is not there.
	ExitUnavailable = 5
	// ExitPartial: an order was placed and filled only in part; the rest was cancelled (a market
	// order's slippage bound, an IOC's price). What filled is a position now.
	ExitPartial = 6
)

// ExitRow is one row of the exit table.
type ExitRow struct {
	Code    int
	Outcome string // the word --json output carries
	Meaning string
}

// ExitTable is the exit table, in order of code.
func ExitTable() []ExitRow {
	return []ExitRow{
		{ExitOK, "ok", "done"},
		{ExitRefused, "refused", "refused by a check before anything was signed or sent (nothing sent)"},
		{ExitUsage, "usage", "usage error: a flag or argument to fix (nothing sent)"},
		{ExitRejected, "rejected", "refused by the exchange"},
		{ExitUnknown, "unknown", "sent, outcome unknown: the answer was lost and the lookup did not settle it"},
		{ExitUnavailable, "unavailable", "network or exchange unavailable (nothing done)"},
		{ExitPartial, "partial", "order filled only in part: the rest was cancelled (what filled stands)"},
	}
}

// ExitTableText is the exit table as text lines, for --help and the man page.
func ExitTableText() string {
	var b strings.Builder
	for _, r := range ExitTable() {
		fmt.Fprintf(&b, "  %d  %-11s  %s\n", r.Code, r.Outcome, r.Meaning)
	}
	return b.String()
}

// OutcomeWord is the word of an exit status ("ok", "refused", ...).
func OutcomeWord(code int) string {
	for _, r := range ExitTable() {
		if r.Code == code {
			return r.Outcome
		}
	}
	return "failed"
}

// ExitError is a command's failure with its exit status. Reported says the command already
// printed it (its one line on stderr, and its JSON with --json).
type ExitError struct {
	Code     int
	Err      error
	Reported bool
}

// Error implements error.
func (e *ExitError) Error() string { return e.Err.Error() }

// Unwrap returns the failure.
func (e *ExitError) Unwrap() error { return e.Err }

// Usage marks err as a usage error (exit 2): a flag or argument to fix, nothing sent. Front ends
// that check their own flags (the console's --theme, --network) return it.
func Usage(err error) error { return usageError{err.Error()} }

// IsUsage reports whether err is a usage error.
func IsUsage(err error) bool {
	var u usageError
	return errors.As(err, &u)
}

// withExit gives err the exit status code (a command knows better than the classifier).
func withExit(code int, err error) error { return &ExitError{Code: code, Err: err} }

// exitCode classifies a command's error by the exit table.
func exitCode(err error) int {
	var u usageError
	if errors.As(err, &u) {
		return ExitUsage
	}
	var x *ExitError
	if errors.As(err, &x) {
		return x.Code
	}
	if e, ok := api.AsError(err); ok {
		return apiExit(e)
	}
	return ExitRefused
}

// apiExit is the exit status of an error from the exchange client.
func apiExit(e *api.Error) int {
	switch {
	case e.Ambiguous():
		return ExitUnknown
	case e.Kind == api.KindInvalid:
		return ExitRefused
	case e.Temporary():
		return ExitUnavailable
	}
	switch e.Kind {
	case api.KindNotJSON, api.KindTooLarge, api.KindDecode, api.KindCanceled:
		return ExitUnavailable
	}
	return ExitRejected // a 4xx, or an answer that states an error
}

// failureJSON is what --json prints on stdout when a command fails.
type failureJSON struct {
	Outcome  string `json:"outcome"`
	ExitCode int    `json:"exit_code"`
	Command  string `json:"command"`
	Error    string `json:"error"`
}

// fail prints err as one line on stderr (and, with --json, as a JSON object on stdout unless the
// command printed its own) and returns it with its exit status.
func (r *runner) fail(err error) error {
	code := exitCode(err)
	msg := oneLine(err.Error())
	fmt.Fprintf(r.env.Stderr, "tradedesk %s: %s\n", r.cmd.name, msg)
	if r.o.json && !r.jsonDone {
		_ = writeJSON(r.env.Stdout, failureJSON{Outcome: OutcomeWord(code), ExitCode: code, Command: r.cmd.name, Error: text.HideKeys(text.Clean(msg))})
	}
	return &ExitError{Code: code, Err: err, Reported: true}
}

// Execute runs a command tree on args and returns the exit status: a command's own (ExitError),
// else 2 for what cobra refused (an unknown command or flag, a bad flag value), said in one line
// on stderr. A single-dash long flag (-url, as Go's flag package took it) is read as --url.
func Execute(ctx context.Context, root *cobra.Command, args []string, stderr io.Writer) int {
	root.SilenceErrors, root.SilenceUsage = true, true
	root.SetErr(stderr)
	root.SetArgs(longDashes(root, args))
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{flagValueError(err).Error()} })
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return ExitOK
	}
	var x *ExitError
	if errors.As(err, &x) {
		if !x.Reported {
			fmt.Fprintf(text.NewWriter(stderr, true), "%s: %s\n", cmd.CommandPath(), oneLine(err.Error()))
		}
		return x.Code
	}
	msg := oneLine(err.Error()) + flagHint(err)
	fmt.Fprintf(text.NewWriter(stderr, true), "%s: %s; run %s --help\n", cmd.CommandPath(), msg, cmd.CommandPath())
	if asksJSON(args) {
		// A script that asked for JSON gets the outcome as JSON, whatever stopped the line.
		_ = writeJSON(text.NewWriter(root.OutOrStdout(), false), failureJSON{Outcome: OutcomeWord(ExitUsage), ExitCode: ExitUsage,
			Command: strings.TrimPrefix(cmd.CommandPath(), "tradedesk "), Error: text.HideKeys(text.Clean(msg))})
	}
	return ExitUsage
}

// asksJSON reports whether --json is among the flags of args.
func asksJSON(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--json", "-json", "--json=true", "-json=true":
			return true
		}
	}
	return false
}

// flagHints say why a command does not take a flag that others take.
var flagHints = map[string]string{
	"agent-keystore": "an agent key places and cancels orders only: this needs the account's own key (--keystore FILE or TRADEDESK_PRIVATE_KEY)",
	"account":        "this needs the account's own key (--keystore FILE or TRADEDESK_PRIVATE_KEY), which names the account",
	"address":        "--address reads an account without its key; this command signs: give --keystore FILE, or --agent-keystore FILE --account 0x...",
	"slippage":       "only order takes --slippage (a market order's worst-price bound)",
	"json":           "export writes JSON with --format json",
}

// flagHint is the hint for an unknown flag that other commands take ("" for any other error).
func flagHint(err error) string {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return ""
	}
	if h, ok := flagHints[name]; ok {
		return " (" + h + ")"
	}
	return ""
}

// longDashes rewrites -name and -name=value to --name... when name is a long flag somewhere in the
// tree, so command lines written for Go's flag package keep working. A word after a flag that
// takes a value is that value, and "--" ends the flags. A line with no such word is left as is,
// without gathering the tree's flags (sorting every command's).
func longDashes(root *cobra.Command, args []string) []string {
	out := slices.Clone(args)
	if !slices.ContainsFunc(args, singleDashLong) {
		return out
	}
	long := longFlags(root)
	for i := 0; i < len(out); i++ {
		a := out[i]
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--") {
			name, _, hasValue := strings.Cut(a[2:], "=")
			if long[name] && !hasValue {
				i++ // its value
			}
			continue
		}
		if !singleDashLong(a) {
			continue
		}
		name, _, hasValue := strings.Cut(a[1:], "=")
		takes, ok := long[name]
		if !ok {
			continue
		}
		out[i] = "-" + a
		if takes && !hasValue {
			i++
		}
	}
	return out
}

// singleDashLong reports whether a may be a long flag written with one dash (-url).
func singleDashLong(a string) bool { return len(a) >= 3 && a[0] == '-' && a[1] != '-' }

// longFlags are the long flags of every command in the tree: whether each takes a value.
func longFlags(root *cobra.Command) map[string]bool {
	long := map[string]bool{}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		visit := func(f *pflag.Flag) { long[f.Name] = f.NoOptDefVal == "" }
		c.Flags().VisitAll(visit)
		c.PersistentFlags().VisitAll(visit)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	return long
}
