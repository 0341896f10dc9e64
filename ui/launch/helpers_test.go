package launch

import (
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/sim"
	"github.com/tradedesk/tradedesk/ui/cli"
)

// options are the console's flags, as main names them.
type options = cli.ConsoleOptions

const (
	roKeyHex = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
	roAddr   = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
)

// fundedSim is a simulator that knows the fixed test key's account (the simulator acts only for
// accounts it knows).
func fundedSim(t *testing.T) *sim.Sim {
	t.Helper()
	s := sim.New(sim.WithSeed(5))
	signer, err := api.SignerFromHex(roKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Fund(signer.Address(), sim.DefaultDemoBalance); err != nil {
		t.Fatal(err)
	}
	return s
}
