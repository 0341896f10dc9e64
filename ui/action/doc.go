// Package action is the signed actions the console sends: an Action says how it is confirmed and
// how it goes through the executor (state/exec): Run, an executor call for an order or a cancel,
// or Direct, the one signed call the executor's Do journals for anything else. What became of it
// is read from the executor's send.Result (Words), the executor having looked a lost answer up
// and settled the fills. Panes build one with a constructor (NewOrder, NewCancel,
// NewCancelInstrument, NewCancelAll, or their own) and return Request(a); the root model's
// pipeline (see ui's pipeline type) does the rest.
package action
