package launch

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/ui"
	"github.com/tradedesk/tradedesk/ui/headless"
)

// TestOpenOtherProfilesLeavesOutTheBrokenOne: started on profile a with connection flags, the
// other profiles open from their own tables (no flag, no --seed carried over); one that does not
// open is left out with why on stderr, the others still open, and the closer closes each that
// opened once.
func TestOpenOtherProfilesLeavesOutTheBrokenOne(t *testing.T) {
	o := options{Connection: headless.Connection{Profile: "a", URL: "http://127.0.0.1:1/", Address: roAddr}, Seed: 9}
	o.AddressFlag = "--address"
	closed := map[string]int{}
	var asked []options
	open := func(_ context.Context, o options) (ui.Config, func(), error) {
		asked = append(asked, o)
		if o.Profile == "b" {
			return ui.Config{}, nil, errors.New("no such keystore")
		}
		return ui.Config{Profile: o.Profile}, func() { closed[o.Profile]++ }, nil
	}
	var errs bytes.Buffer
	cfgs, closeAll := OpenOtherProfiles(context.Background(), o, []string{"a", "b", "c"}, &errs, open)
	if len(cfgs) != 1 || cfgs[0].Profile != "c" || !strings.Contains(errs.String(), "no such keystore") || !strings.Contains(errs.String(), "b") {
		t.Fatalf("opened %+v, stderr %q: want c alone, b's reason on stderr", cfgs, errs.String())
	}
	for _, a := range asked {
		if a.Profile == "a" || a.URL != "" || a.Address != "" || a.AddressFlag != "" || a.Seed != 0 {
			t.Errorf("profile %s opened with the first one's flags: %+v", a.Profile, a.Connection)
		}
	}
	closeAll()
	if len(closed) != 1 || closed["c"] != 1 {
		t.Errorf("closed %v, want c once", closed)
	}
}
