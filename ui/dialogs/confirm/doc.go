// Package confirm is the one confirmation dialog of every signed action: the action's title and
// lines, then Enter (or a word the trader must type, when the fat-finger guard asks for it)
// confirms once, and Esc backs out. New dialogs (leverage, agents, broker approvals) start beside
// it under ui/dialogs.
package confirm
