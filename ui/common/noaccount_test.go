package common_test

import (
	"testing"

	"github.com/tradedesk/tradedesk/ui/common"
)

// TestNoAccount: the one wording every view of the account's data uses without an account: how
// to start with one, and what the view would show.
func TestNoAccount(t *testing.T) {
	if got := common.NoAccount("fills"); got != "no account: start with --address, --keystore or a key to see fills" {
		t.Errorf("with what: %q", got)
	}
	if got := common.NoAccount(""); got != "no account: start with --address, --keystore or a key" {
		t.Errorf("without: %q", got)
	}
}
