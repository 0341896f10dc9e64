// Package orderentry is the order form: instrument, side, type (limit, market, take profit, stop
// loss), price, size or a USD notional, time in force, reduce-only and post-only. The one order
// check (state.CheckOrder) runs as the trader types; every problem shows next to its field with a
// value to take, a preview shows notional, fee, margin and liquidation, and Enter asks the
// pipeline to confirm and send the order once.
package orderentry
