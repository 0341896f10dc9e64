package ui

import (
	"context"
	"os"

	"github.com/spf13/cobra"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// runHeadless runs one command line of the headless commands alone (args[0] is the command name)
// and returns its exit status: headless.NewCommands under a bare root, run by headless.Execute,
// as ui/cli does with the console's flags around them.
func runHeadless(ctx context.Context, args []string, env headless.Env) int {
	if env.Stdout == nil {
		env.Stdout = os.Stdout
	}
	if env.Stderr == nil {
		env.Stderr = os.Stderr
	}
	root := &cobra.Command{Use: "tradedesk", SilenceErrors: true, SilenceUsage: true}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetOut(env.Stdout)
	root.AddCommand(headless.NewCommands(env)...)
	return headless.Execute(ctx, root, args, env.Stderr)
}
