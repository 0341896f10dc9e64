// Package api is tradedesk's client of the Exchange Trading API: typed records, the /info queries,
// the signed /exchange actions, the EIP-712 signer and its nonce source, and the key loaders.
package api
