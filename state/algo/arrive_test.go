package algo

import (
	"errors"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/state"
)

// TestArriveOpensChecksAndReadsTheMid: the start a chase and a TWAP share names the instrument as
// the exchange does, hands it to the parameters' check, and reads the arrival price as the mid of
// the best bid and ask (96900 and 97100: 97000); a failed check is returned before the book is
// read, an empty book and an unknown instrument are errors that say so.
func TestArriveOpensChecksAndReadsTheMid(t *testing.T) {
	t.Parallel() // its own simulator and journal
	r := newRig(t, true)
	d := r.deps(nil)
	bad := errors.New("size: give a size above zero")
	refuse := func(state.Instrument) error { return bad }
	if _, _, err := d.arrive(bg, "BTC-PERP", refuse); !errors.Is(err, bad) {
		t.Fatalf("a failed check on an empty book: %v, want the check's error", err)
	}
	var checked string
	ok := func(inst state.Instrument) error { checked = inst.Name; return nil }
	if _, _, err := d.arrive(bg, "BTC-PERP", ok); err == nil || !strings.Contains(err.Error(), "no bid or no ask") {
		t.Fatalf("an empty book: %v", err)
	}
	if _, _, err := d.arrive(bg, "NOPE-PERP", ok); err == nil || !strings.Contains(err.Error(), "no instrument") {
		t.Fatalf("an unknown instrument: %v", err)
	}
	r.stillBook(t, "ar-quote")
	d = r.deps(nil) // its own shared reads: not the empty book read just now
	inst, arrival, err := d.arrive(bg, "btc-perp", ok)
	must(t, err)
	if inst.Name != "BTC-PERP" || checked != "BTC-PERP" || !arrival.Equal(dec("97000")) {
		t.Fatalf("arrive = %s at %s (checked %q), want BTC-PERP at 97000", inst.Name, arrival, checked)
	}
}
