// Package state is the console's data: a Store of everything the panes show, changed only by
// messages passed to Apply, with per-kind freshness and versions; the derived figures (notional,
// PnL, ROE, margin, liquidation distance) as plain functions on decimals; number formatting; and the
// one validation path for orders (CheckOrder) used by the order form, the close-position key and the
// headless order command. It never imports Bubble Tea.
//
// The rules both front ends (the console and the headless commands) word or read things by live
// here once: the reading of an exchange's answer to an order or a cancel (Outcome: OrderOutcome,
// CancelOutcome, CancelManyOutcome), record wording (SideText, OrderTypeText and its
// forms, FlagTexts, DirectionText, TimeText with its layouts), fills added up per order
// (SumFills) and the margin figures (MarginUtilizationAfter, MaintenanceUtilization). CheckOrder
// checks margin by the exchange's own rule, api.MarginOrder (and api.SpotNeed), which the
// simulator rejects with too: a size CheckOrder offers is one the exchange accepts.
//
// Every message implements Msg: it knows its Kind, its ordering key (Order) and how it applies
// itself. Each kind lives in one file of its own: the kind, its data, its messages (whole
// lists or pages from polls; upserts, OrderUpdateMsg and FillMsg, from a stream) and its accessors.
// Order's comment says how polls' local generations, streams' sequence numbers and the local clock
// order each other, so a poll answered after a streamed update it did not see cannot undo it.
// Store's comment has the recipe for adding a kind.
package state
