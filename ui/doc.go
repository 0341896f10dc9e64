// Package ui is the console's Bubble Tea side: the root model that owns focus, layout and
// routing; one file per pane (tickers, positions, orders, order entry, account, balances, chart,
// fills, history, brokers, dialogs, status bar), each sizing itself and bringing its own help; and
// the commands that poll the exchange and send signed actions. main fills in a Config (keys,
// theme, intervals, the exchange) and runs the model New returns.
package ui
