package ui

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui/action"
	"github.com/tradedesk/tradedesk/ui/components/orderentry"
)

// offlineTrader is a client with a key whose exchange is a closed port: nothing is ever sent.
func offlineTrader(t testing.TB) *api.Client {
	s, err := api.SignerFromHex(testKeyHex)
	if err != nil {
		t.Fatal(err)
	}
	return api.New("http://127.0.0.1:1/", api.WithSigner(s))
}

// FuzzOrderForm types random text into the form's price and size fields and submits: the console
// never panics, and a confirmation (the only way to send) opens only for an order the one
// validation path accepted.
func FuzzOrderForm(f *testing.F) {
	for _, seed := range [][2]string{
		{"1000.01", "0.5"}, {"-1", "1"}, {"1e5", "0.1"}, {"abc", ""}, {"0x10", "1"}, {"1000.001", "0.0001"},
		{"", ""}, {"99999999999999999999999999999", "1"}, {"1,000", "1"}, {" 1000 ", ".5"}, {"NaN", "Inf"},
	} {
		f.Add(seed[0], seed[1])
	}
	clock := func() time.Time { return benchNow }
	store := bigStore(clock, 3, 1, 1)
	f.Fuzz(func(t *testing.T, price, size string) {
		m := New(Config{Exchange: offlineTrader(t),
			Store: store, Clock: clock, Keys: mustKeys(t), Theme: testTheme, Mode: ModeDemo, Instrument: "C001-PERP"})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		m.setFocus(3)
		m.form.Focus(orderentry.FieldPrice)
		m.form.SetValue(orderentry.FieldPrice, price)
		m.form.SetValue(orderentry.FieldSize, size)
		_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
		for cmd != nil {
			msg := cmd()
			if _, ok := msg.(action.RequestMsg); !ok {
				break
			}
			_, cmd = m.Update(msg)
		}
		_ = m.View()
		if m.confirmation() != nil && len(m.form.Errors()) > 0 {
			t.Fatalf("price %q size %q: confirmation opened despite %v", price, size, m.form.Errors())
		}
	})
}

// TestOrderFormOpensConfirmationForValidOrder is the fuzz target's positive case: a valid order
// does reach the confirmation, so the fuzz property is not vacuous.
func TestOrderFormOpensConfirmationForValidOrder(t *testing.T) {
	t.Parallel()
	clock := func() time.Time { return benchNow }
	m := New(Config{Exchange: offlineTrader(t),
		Store: bigStore(clock, 3, 0, 0), Clock: clock, Keys: mustKeys(t), Theme: testTheme, Mode: ModeDemo, Instrument: "C001-PERP"})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.reviewEveryOrder()
	m.setFocus(3)
	m.form.SetValue(orderentry.FieldPrice, "1030.00")
	m.form.SetValue(orderentry.FieldSize, "0.5")
	_, cmd := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if cmd == nil {
		t.Fatalf("no request for a valid order; errors %v", m.form.Errors())
	}
	m.Update(cmd())
	if m.confirmation() == nil {
		t.Fatalf("no confirmation for a valid order; notice %q, errors %v", m.shownNotice(), m.form.Errors())
	}
}
