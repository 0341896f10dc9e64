package launch

import (
	"context"
	"fmt"
	"io"

	"github.com/tradedesk/tradedesk/state/session"
	"github.com/tradedesk/tradedesk/ui"
	"github.com/tradedesk/tradedesk/ui/cli"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// OpenProfile opens one profile of the config as the console runs it (main's openProfile: its
// settings, exchange, executor, stream) and returns what closes it.
type OpenProfile func(ctx context.Context, o cli.ConsoleOptions) (ui.Config, func(), error)

// OpenOtherProfiles opens every profile of the config (names) but the one the console was
// started with (o.Profile), each from its own table alone: the connection flags (and a demo's
// --seed) on the command line were for that one. A profile that does not open is left out, with
// why on stderr, so one broken profile does not keep the others from the screen.
func OpenOtherProfiles(ctx context.Context, o cli.ConsoleOptions, names []string, stderr io.Writer, open OpenProfile) ([]ui.Config, func()) {
	var cfgs []ui.Config
	var closers []func()
	for _, name := range names {
		if name == o.Profile {
			continue
		}
		other := o
		other.Connection = headless.Connection{Profile: name}
		other.AddressFlag, other.Seed = "", 0 // a demo profile gets a wallet of its own
		cfg, closeIt, err := open(ctx, other)
		if err != nil {
			fmt.Fprintf(stderr, "tradedesk: profile %s not opened: %v\n", session.Label(name), err)
			continue
		}
		cfgs = append(cfgs, cfg)
		closers = append(closers, closeIt)
	}
	return cfgs, func() {
		for _, c := range closers {
			c()
		}
	}
}
