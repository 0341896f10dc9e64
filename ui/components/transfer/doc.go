// Package transfer is the form for every money movement: a transfer to another account, a move
// between the account's spot and derivative sides, and a withdrawal to a chain. state/funds checks
// it as it is typed (decimals, balance with the fee, EIP-55 address, enabled chain); Enter asks the
// pipeline to confirm the whole movement (the address in full, the fee, what arrives) and send it
// once.
package transfer
