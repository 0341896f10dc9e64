// Package api is tradedesk's client of the Exchange Trading API: typed records, the /info queries,
// the signed /exchange actions, the EIP-712 signer and its nonce source, and the key loaders.
//
// A client for reading only:
//
//	c := api.New("", api.WithNetwork(api.Testnet), api.WithAddress("0x..."))
//	pos, err := c.Positions(ctx, "") // "" = the client's own account
//
// A client that trades loads a Signer (keyfile.LoadSigner, the one rule every front end loads keys by:
// keystore or TRADEDESK_PRIVATE_KEY, the --address check, the mainnet warning; ResolveEndpoint
// checks the URL or network) and passes WithSigner. A request whose answer was lost is looked up
// with FindCloid, never sent again. Every /exchange call takes a fresh nonce from the signer's
// NonceSource (Unix ms, strictly increasing), sets expiresAfter = nonce + 60 s on orders and
// cancels, signs the MessagePack of action.data (key order fixed, nonce last) with EIP-712 in the
// HotstuffCore domain and posts {"action":{"type":NAME,"data":...},"signature":...,"nonce":N}.
//
// Every failure is an *Error with a Kind, the HTTP status and the server's message. /info calls
// are retried on 429, 5xx, timeouts and network errors (RetryPolicy); /exchange calls never are.
// When an /exchange call fails after the request may have reached the exchange, Error.Ambiguous
// is true: look the order up by its cloid before sending it again.
//
// Every request is logged with log/slog (WithLogger, else slog.Default() at call time): method or
// action, status, latency, sizes, error kind, and for actions the nonce and cloids. Signatures are
// shortened to their first 6 hex digits and keys are never logged.
//
// The server side of signing is DecodeSignedRequest, which the simulator uses to authenticate.
package api
