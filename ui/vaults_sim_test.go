package ui

import (
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui/components/vaults"
)

const testVault = "0x1111111111111111111111111111111111111111"

// vaultShares is what the exchange says a profile's account holds of testVault.
func (tp *twoProfiles) vaultShares(t *testing.T, name string) api.VaultBalance {
	t.Helper()
	ex := tp.sw.models[name].ex
	s, err := ex.AccountSummary(t.Context(), ex.Address())
	if err != nil {
		t.Fatal(err)
	}
	return s.VaultBalances[testVault]
}

// TestTheVaultsViewDepositsAndRedeemsWithConfirmations (issue #42): the ctrl+a list's vaults row
// opens the active profile's Vaults view; t and "0xVAULT 1000" ask for a confirmation naming the
// deposit, the vault and the profile, Enter sends it (1,000 shares, on a's account only); the view
// lists the vault with its shares, total and worth; w offers every share, a redeem's confirmation
// dismissed sends nothing, confirmed it redeems them all. A bad line is refused in the view saying
// what to type.
func TestTheVaultsViewDepositsAndRedeemsWithConfirmations(t *testing.T) {
	t.Parallel()
	tp := newTwoProfiles(t, nil)
	if err := tp.sim.AddVault(testVault); err != nil {
		t.Fatal(err)
	}
	openVaults := func() *vaults.View {
		t.Helper()
		tp.switchTo(t, "vaults")
		v, ok := tp.sw.Active().openSheet().(*vaults.View)
		if !ok {
			t.Fatalf("the vaults row opened %T", tp.sw.Active().openSheet())
		}
		return v
	}
	v := openVaults()
	if view := tp.sw.View(); !strings.Contains(view, "VAULTS · profile a") || !strings.Contains(view, "no vault shares") {
		t.Fatalf("the empty Vaults view:\n%s", view)
	}
	tp.key(t, "t")
	tp.typeLine(t, testVault+" lots")
	tp.key(t, "enter")
	if !strings.Contains(tp.sw.View(), "type a USD amount") || tp.sw.Active().confirmation() != nil {
		t.Fatalf("a bad amount was not refused in the view:\n%s", tp.sw.View())
	}
	tp.key(t, "esc", "t")
	tp.typeLine(t, testVault+" 1000")
	tp.key(t, "enter")
	d := tp.sw.Active().confirmation()
	if d == nil || !strings.Contains(d.Action().Title, "Confirm vault deposit · profile a") || !strings.Contains(strings.Join(d.Action().Lines, "\n"), testVault) {
		t.Fatalf("the deposit's confirmation: %+v (view %v)", d, v.Rows())
	}
	tp.key(t, "enter")
	if got := tp.vaultShares(t, "a"); got.WithdrawableShares.String() != "1000" || !tp.vaultShares(t, "b").WithdrawableShares.IsZero() {
		t.Fatalf("after the deposit: a %+v, b %+v (notice %q)", got, tp.vaultShares(t, "b"), tp.sw.Active().shownNotice())
	}
	v = openVaults()
	if rows := v.Rows(); len(rows) != 1 || rows[0].TotalShares.String() != "1000" || !strings.Contains(tp.sw.View(), "1,000.00") {
		t.Fatalf("the view after the deposit: %+v\n%s", rows, tp.sw.View())
	}
	tp.key(t, "w", "enter")
	if d := tp.sw.Active().confirmation(); d == nil || !strings.Contains(d.Action().Title, "Confirm vault redeem") || !strings.Contains(d.Action().What, "1000 shares") {
		t.Fatalf("the redeem's confirmation: %+v", d)
	}
	tp.key(t, "esc")
	if got := tp.vaultShares(t, "a"); got.WithdrawableShares.String() != "1000" {
		t.Fatalf("a dismissed redeem sent: %+v", got)
	}
	openVaults()
	tp.key(t, "w", "enter", "enter")
	if got := tp.vaultShares(t, "a"); !got.WithdrawableShares.IsZero() {
		t.Fatalf("after the redeem: %+v (notice %q)", got, tp.sw.Active().shownNotice())
	}
}

// typeLine types s, a key per character.
func (tp *twoProfiles) typeLine(t *testing.T, s string) {
	t.Helper()
	for _, r := range s {
		tp.key(t, string(r))
	}
}
