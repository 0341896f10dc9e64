// Package signerkey hands a Signer's private key to the packages under api that write it to a
// key file (api/keyfile), and, being internal, to no package outside api.
package signerkey

import "crypto/ecdsa"

// Of returns the private key of an *api.Signer (set by package api, whose Signer type this
// package cannot name: api imports it).
var Of func(signer any) *ecdsa.PrivateKey
