// Package feed is the console's one scheduler. Every kind of data the console shows comes through
// a Task: where it comes from (a periodic Request, a pane's own requests with Send, and a Stream
// beside them), its cadence, its generations (one request in flight, a late reply dropped), the
// requests asked for meanwhile, its backoff with jitter and Retry-After, the heartbeat the status
// line reads (Conn) and the recovery of every failing task when the exchange answers again.
//
// Time comes from a Clock: RealClock in production (timers are plain timers), FakeClock in tests,
// which a test steps with Advance and whose timers come back as messages to deliver. No test needs
// to tell a timer's command from a request's.
//
// The feed imports no Bubble Tea: its commands (Cmd, Batch) are plain functions. The console hands
// them to Bubble Tea through common.Tea; a front end without a screen runs them with Run.
//
// The root model owns one Feed and hands it every Msg (Update); a reply comes back as the
// state.Msg to apply, and the command of what follows. It imports state and api, never package ui.
//
// To add a kind of data: declare it in state (see state.Store's recipe), then in ui either add a
// root poll (one entry in ui's pollSpecs: its request and its cadence) or, for a pane's
// own data, Feed.Add a Spec in the pane's constructor and Start it on common.StartPanesMsg (see
// the recipe on common.Pane). The stream is the feed's one Source (Feed.AddSource): its Message
// builds each record's upsert, and the polls of its Kinds slow to a reconciliation pass while it
// is up, unless a market topic of theirs went silent behind live pings (the data heartbeat,
// Conn.Stalled): then they poll at their own cadence until it speaks again.
package feed
