package api

import (
	"context"
	"encoding/json"
)

// Signing is an /exchange action about to be signed: its nonce and expiry are fixed, nothing is
// signed or sent yet. A write-ahead journal records it here, so that a process killed at any
// later point knows what it may have sent.
type Signing struct {
	// Action is the spec's action name (placeOrder, cancelByOid, ...).
	Action string
	// Nonce is the action's nonce (Unix milliseconds).
	Nonce uint64
	// ExpiresAfter is the Unix millisecond after which the exchange must not act on the request
	// (0: the action carries none, as collateral actions do).
	ExpiresAfter uint64
	// Data is the action's data exactly as it is signed and sent: action.data of the body, without
	// the signature.
	Data json.RawMessage
}

type beforeSignKey struct{}

// WithBeforeSign returns a context whose /exchange actions are shown to f once their nonce and
// expiry are fixed and before they are signed. When f returns an error the action is neither
// signed nor sent, and the call returns that error (KindInvalid: nothing reached the exchange).
func WithBeforeSign(ctx context.Context, f func(Signing) error) context.Context {
	return context.WithValue(ctx, beforeSignKey{}, f)
}

// beforeSign calls the context's WithBeforeSign function, if any, on data.
func beforeSign(ctx context.Context, op string, info ActionInfo, data ActionData) *Error {
	f, ok := ctx.Value(beforeSignKey{}).(func(Signing) error)
	if !ok || f == nil {
		return nil
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return &Error{Kind: KindInvalid, Op: op, Err: err}
	}
	n, exp := nonceAndExpiry(data)
	if err := f(Signing{Action: info.Name, Nonce: n, ExpiresAfter: exp, Data: raw}); err != nil {
		return &Error{Kind: KindInvalid, Op: op, Message: "not signed: " + err.Error(), Err: err}
	}
	return nil
}

type signedKey struct{}

// WithSigned returns a context whose /exchange actions call f once signed, just before they are
// posted: the report's latency route stamps its "signed" point there.
func WithSigned(ctx context.Context, f func()) context.Context {
	return context.WithValue(ctx, signedKey{}, f)
}

// signed calls the context's WithSigned function, if any.
func signed(ctx context.Context) {
	if f, ok := ctx.Value(signedKey{}).(func()); ok && f != nil {
		f()
	}
}
