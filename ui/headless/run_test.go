package headless

import (
	"context"

	"github.com/spf13/cobra"
)

// Run runs one command line of the headless commands, as the tests drive them: args[0] is the
// command name, the rest its arguments and flags. It returns the exit status (ExitTable). The
// console's front end (ui/cli) adds the same commands (NewCommands) to its own tree.
func Run(ctx context.Context, args []string, env Env) int {
	env.fill()
	root := &cobra.Command{Use: "tradedesk", SilenceErrors: true, SilenceUsage: true}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetOut(env.Stdout)
	root.AddCommand(NewCommands(env)...)
	return Execute(ctx, root, args, env.Stderr)
}
