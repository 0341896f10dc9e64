// Package ui is the console's Bubble Tea side. Its root model (Model) composes the panes, owns
// focus, layout and key routing, runs the one pipeline for signed actions (Model.onAction)
// and applies what the feed brings to the store. main fills in a Config (keys, theme,
// intervals, the exchange) and runs the model New returns.
//
// The layout:
//
//	ui/                       root model: composition, focus, key routing, the signed-action pipeline
//	ui/action/                signed actions: how each is confirmed, sent through the executor, and
//	                          its exec.Result read into the status line's words
//	ui/common/                the pane kit: Pane, Common, key map, styles, table, formats, messages
//	ui/common/commontest/     the real key table and a Common for the tests of pane packages
//	ui/components/<pane>/     one package per pane or view (tickers, orderentry, depth, messages...)
//	ui/components/risk/       the trading state's status-line read and :risk, fed the engine and account
//	ui/components/guard/      the link to the account's guard and :guard, fed the socket directory
//	ui/components/live/       a shadow console's live route and the send_live key (Sender), fed values
//	ui/dialogs/<dialog>/      modal dialogs (confirm, leverage)
//	ui/headless/              the script commands (order, cancel, fills, export, transfer...)
//	ui/launch/                the console's start-up wiring (main calls it): the exchange (the demo,
//	                          --shadow's mirror, a real one), the executor, the other profiles, the
//	                          --log file
//	ui/export/                CSV and JSON export of every page
//	ui/chart/                 the candle chart renderer
//	ui/redact/                scrubs key material from anything written
//
// Below ui, with no Bubble Tea:
//
//	state/exec/               the one executor: risk gate, write-ahead journal, send, a lost answer
//	                          resolved by cloid until expiresAfter, fills, a typed outcome; Recover;
//	                          Open, the construction the console (ui/launch) and the headless commands
//	                          share. Everything either signs goes through it (Do: transfers,
//	                          withdrawals, leverage, agents, brokers)
//	state/feed/               the one scheduler: per kind, its source (poll, pane request, stream),
//	                          cadence, generations, backoff, recovery; a clock tests can step. Its
//	                          commands are plain funcs; common.Tea hands them to Bubble Tea
//	state/journal/            the write-ahead journal of signed actions (SQLite, per network and account)
//	state/profile/            the one config loader: endpoint, key source, guard, cadences (Intervals),
//	                          display settings; the agent check (console and headless alike)
//
// Every pane and view is its own package under ui/components; the root holds no pane. The recipe
// for a new pane is on common.Pane (one package and one line in Model.addPanes), for a signed
// action on the pipeline type.
package ui
