package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// manCommand is `tradedesk man`: the man pages, made from the same command definitions as the
// help. With --dir it writes one page per command there (tradedesk.1, tradedesk-order.1, ...);
// else it prints the page of the command named (the root's when none) on stdout:
// `tradedesk man order | man -l -`.
func manCommand(root *cobra.Command, stdout io.Writer) *cobra.Command {
	var dir string
	c := &cobra.Command{
		Use:   "man [COMMAND...] [--dir DIR]",
		Short: "Print a command's man page, or write every page to a directory",
		Long: "Print the man page of tradedesk (or of the command named, e.g. tradedesk man agent add) on stdout,\n" +
			"for man -l -; with --dir DIR write every command's page there (tradedesk.1, tradedesk-order.1, ...).",
		DisableFlagsInUseLine: true,
		RunE: func(_ *cobra.Command, args []string) error {
			header := &doc.GenManHeader{Title: "TRADEDESK", Section: "1", Source: "tradedesk " + ReadBuild().Version, Manual: "tradedesk manual"}
			if dir != "" {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return err
				}
				return doc.GenManTree(root, header, dir)
			}
			cmd, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 {
				return fmt.Errorf("no command %q", strings.Join(args, " "))
			}
			var b bytes.Buffer
			if err := doc.GenMan(cmd, header, &b); err != nil {
				return err
			}
			_, err = stdout.Write(b.Bytes())
			return err
		},
	}
	c.Flags().StringVar(&dir, "dir", "", "write every command's page to `DIR`")
	return c
}
