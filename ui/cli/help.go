package cli

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
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
	{"other", "Other:", []string{"sim", "version", "man", "completion", "help"}},
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

// splitFlagHelp lists a command's own flags under Flags: and the shared ones (connection,
// account, output) under a heading of their own.
func splitFlagHelp(root *cobra.Command) {
	cobra.AddTemplateFunc("ownFlagUsages", func(c *cobra.Command) string { return flagUsages(c, false) })
	cobra.AddTemplateFunc("sharedFlagUsages", func(c *cobra.Command) string { return flagUsages(c, true) })
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
