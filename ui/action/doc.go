// Package action is the signed actions the console sends: an Action says how it is confirmed,
// how it runs against api.Trader, how its answer is read and how a lost answer is found out
// (orders are looked up by cloid, cancels checked against the open orders). Panes build one with a
// constructor (NewOrder, NewCancel, NewCancelInstrument, NewCancelAll, or their own) and return
// Request(a); the root model's pipeline (see ui's pipeline type) does the rest.
package action
