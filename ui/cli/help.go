package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/tradedesk/tradedesk/api/text"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// The groups of the root's command list.
var commandGroups = []struct {
	id, title string
	names     []string
}{
	{"trade", "Trading (sign and send):", []string{"order", "cancel", "cancel-all", "leverage", "transfer", "withdraw"}},
	{"read", "Reading:", []string{"account", "positions", "orders", "fills", "history", "tickers", "instruments", "collateral", "export"}},
	{"keys", "Agent wallets and brokers:", []string{"agent", "broker"}},
	{"other", "Other:", []string{"sim", "version", "man", "completion", "exit-codes", "help"}},
}

// groupCommands sorts the root's commands into the groups of its help.
func groupCommands(root *cobra.Command) {
	for _, g := range commandGroups {
		root.AddGroup(&cobra.Group{ID: g.id, Title: g.title})
		for _, name := range g.names {
			for _, c := range root.Commands() {
				if c.Name() == name {
					c.GroupID = g.id
				}
			}
		}
	}
	root.SetHelpCommandGroupID("other")
	root.SetCompletionCommandGroupID("other")
}

// addTemplateFuncs registers the help's template functions once: cobra keeps them in a
// package-level map, so two roots built at once (tests, an embedding program) would race.
var addTemplateFuncs sync.Once

// splitFlagHelp lists a command's own flags under Flags: and the shared ones (connection,
// account, output) under a heading of their own.
func splitFlagHelp(root *cobra.Command) {
	addTemplateFuncs.Do(func() {
		cobra.AddTemplateFunc("ownFlagUsages", func(c *cobra.Command) string { return flagUsages(c, false) })
		cobra.AddTemplateFunc("sharedFlagUsages", func(c *cobra.Command) string { return flagUsages(c, true) })
	})
	const local = "{{.LocalFlags.FlagUsages | trimTrailingWhitespaces}}"
	t := root.UsageTemplate()
	if !strings.Contains(t, local) {
		return // another cobra's template: the flags stay in one list
	}
	root.SetUsageTemplate(strings.Replace(t, local,
		"{{ownFlagUsages . | trimTrailingWhitespaces}}{{with sharedFlagUsages .}}\n\nConnection, account and output flags:\n{{. | trimTrailingWhitespaces}}{{end}}", 1))
}

// flagUsages is the help of the command's local flags that are shared (or not).
func flagUsages(c *cobra.Command, shared bool) string {
	fs := pflag.NewFlagSet(c.Name(), pflag.ContinueOnError)
	c.LocalFlags().VisitAll(func(f *pflag.Flag) {
		_, isShared := f.Annotations[headless.SharedFlag]
		if isShared == shared {
			fs.AddFlag(f)
		}
	})
	return fs.FlagUsages()
}

// helpCommand is `tradedesk help [COMMAND...]`: COMMAND's help, the same as COMMAND --help. A
// word that names no command is a usage error (exit 2) saying so, not the root's help with 0.
func helpCommand(stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help about any command: tradedesk help COMMAND is tradedesk COMMAND --help; tradedesk help exit-codes is the exit status table.",
		Args:  cobra.ArbitraryArgs,
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []string
			for _, s := range cmd.Commands() {
				if (s.IsAvailableCommand() || s.IsAdditionalHelpTopicCommand()) && strings.HasPrefix(s.Name(), toComplete) {
					names = append(names, s.Name()+"\t"+s.Short)
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				return unknownTopic(c, args, rest, stderr)
			}
			cmd.InitDefaultHelpFlag()
			cmd.InitDefaultVersionFlag()
			return cmd.Help()
		},
	}
}

// unknownTopic reports a help topic that names no command, with the commands it resembles.
func unknownTopic(c *cobra.Command, args, rest []string, stderr io.Writer) error {
	word := strings.Join(args, " ")
	if len(rest) > 0 {
		word = rest[0]
	}
	msg := fmt.Sprintf("unknown command %s", text.Quote(word))
	root := c.Root()
	if root.SuggestionsMinimumDistance <= 0 {
		root.SuggestionsMinimumDistance = 2 // cobra's own default, set only as it runs a command
	}
	if s := root.SuggestionsFor(word); len(s) > 0 {
		msg += " (did you mean " + strings.Join(s, " or ") + "?)"
	}
	msg += "; tradedesk --help lists the commands"
	fmt.Fprintf(text.NewWriter(stderr, true), "tradedesk help: %s\n", msg)
	return &headless.ExitError{Code: headless.ExitUsage, Err: errors.New(msg), Reported: true}
}

// exitCodesCommand is `tradedesk exit-codes` (and its help, `tradedesk help exit-codes`): the
// exit status table every command exits by.
func exitCodesCommand(stdout io.Writer) *cobra.Command {
	return &cobra.Command{Use: "exit-codes", Short: "Print the exit status table every command exits by", Long: exitHelp(),
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintln(stdout, exitHelp())
			return err
		}}
}

// exitPointer is the line every command's help ends with.
const exitPointer = "Exit status: 0 ok, 1 refused, 2 usage, 3 rejected, 4 unknown, 5 unavailable; see tradedesk help exit-codes."

// pointToExitCodes ends every command's help (but the root's, which holds the table) with the
// exit statuses in one line and where the table is.
func pointToExitCodes(root *cobra.Command) {
	root.SetUsageTemplate(root.UsageTemplate() + "{{if .HasParent}}\n" + exitPointer + "\n{{end}}")
}
