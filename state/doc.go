// Package state is the console's data: a Store of everything the panes show, changed only by
// messages passed to Apply, with per-kind freshness and versions; the derived figures (notional,
// PnL, ROE, margin, liquidation distance) as plain functions on decimals; number formatting; and the
// one validation path for orders (CheckOrder) used by the order form, the close-position key and the
// headless order command. It never imports Bubble Tea.
package state
