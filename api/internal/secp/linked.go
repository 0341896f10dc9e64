package secp

import "crypto/ecdsa"

// Funcs are go-ethereum's crypto functions this package can hand its work to (UseLinked):
// crypto.Sign, crypto.Ecrecover, crypto.ToECDSA and crypto.GenerateKey.
type Funcs struct {
	Sign        func(digest []byte, key *ecdsa.PrivateKey) ([]byte, error)
	Ecrecover   func(digest, sig []byte) ([]byte, error)
	ToECDSA     func(d []byte) (*ecdsa.PrivateKey, error)
	GenerateKey func() (*ecdsa.PrivateKey, error)
}

// linked, when UseLinked set it, does the work in place of this package's pure Go.
var linked Funcs

// UseLinked makes Sign, Ecrecover, RecoverAddress, KeyFromBytes and GenerateKey call f's
// functions once their own checks pass: go-ethereum's, which a binary that links its keystore
// links anyway, and which built with cgo run in libsecp256k1, two to four times faster than
// PureSign and PureEcrecover (some sixty times under the race detector), with the same bytes.
// Call it from an init only, and only where crypto.Sign is cgo's (it has no curve check):
// api/keyfile does, and this package itself in a race build.
func UseLinked(f Funcs) { linked = f }

// Linked reports whether UseLinked set the functions this package calls.
func Linked() bool { return linked.Sign != nil }
