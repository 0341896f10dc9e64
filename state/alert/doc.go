// Package alert is tradedesk's alert engine: rules (Rule, read from the grammar by Parse) that an
// Engine evaluates against the store after every change the front end applies to it, so the
// console and the headless `tradedesk alerts watch` fire the same alerts. It draws nothing:
// delivery (Deliver: the on_alert command, the webhook, the desktop notification) and the
// terminal's bell and status line are the front ends'.
//
// No storms: every rule has a stable id (Rule.ID, from its definition); once fired it re-arms only
// after its value has come back past the threshold by a margin (Rule.Rearm) or stayed back for
// RearmChecks checks; a cool-down (Rule.Cooldown) starts only when the front end says the alert
// was delivered (Engine.Delivered); a one-shot rule fires once. A burst is summarised by Summary
// ("3 alerts") while every event is still handed on. Liquidation and margin rules fire at start
// when their condition holds (the process cannot know how long it was away); the others wait for a
// crossing.
package alert
