package headless

import (
	"slices"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestBatchLineBadFlagValue: a batch line's flag value that does not parse gets the message the
// command line's does (the line, the flag, the value, what to give), not pflag's wording.
func TestBatchLineBadFlagValue(t *testing.T) {
	t.Parallel()
	_, err := (&runner{}).lineIntent("--instrument BTC-PERP --post-only=maybe", 3)
	want := `line 3: --post-only "maybe": not true or false; give the flag alone for true, or --post-only=false`
	if err == nil || err.Error() != want || !IsUsage(err) {
		t.Fatalf("error %v: want the usage error %q", err, want)
	}
}

// TestACommandLineGathersNoFlagsItDoesNotNeed: each command line builds every command's flags
// (a headless process runs one; TestPastedKeyNeverEchoed thousands). longDashes gathers the
// tree's flags only for a line with a single-dash word it may rewrite (-url), and the shared
// flags are marked in the order declared, the set left to sort when asked; the line is read
// as before, and the marks and the sorted help order are all there.
func TestACommandLineGathersNoFlagsItDoesNotNeed(t *testing.T) {
	root := &cobra.Command{Use: "tradedesk"}
	root.AddCommand(NewCommands(Env{})...)
	line := []string{"order", "--instrument", "BTC-PERP", "--size", "-1", "--json"}
	if n := testing.AllocsPerRun(10, func() { _ = longDashes(root, line) }); n > 3 {
		t.Errorf("longDashes on a line with no single-dash flag: %.0f allocations, want 1, its copy (gathering the tree's flags takes about 12)", n)
	}
	for _, c := range []struct{ in, want []string }{
		{line, line},
		{[]string{"order", "-instrument", "BTC-PERP", "-size=1", "-json", "--", "-url"}, []string{"order", "--instrument", "BTC-PERP", "--size=1", "--json", "--", "-url"}},
	} {
		if got := longDashes(root, c.in); !slices.Equal(got, c.want) {
			t.Errorf("longDashes(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	fs.String("zeta", "", "")
	fs.String("alpha", "", "")
	markShared(fs)
	fs.String("beta", "", "")
	var names []string
	fs.VisitAll(func(f *pflag.Flag) {
		names = append(names, f.Name)
		if _, shared := f.Annotations[SharedFlag]; shared != (f.Name != "beta") {
			t.Errorf("--%s marked shared: %t", f.Name, shared)
		}
	})
	if !fs.SortFlags || !slices.Equal(names, []string{"alpha", "beta", "zeta"}) {
		t.Errorf("after markShared: sorted %t, order %q", fs.SortFlags, names)
	}
}
