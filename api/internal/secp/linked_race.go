//go:build race && cgo

package secp

import "github.com/ethereum/go-ethereum/crypto"

// Under the race detector this package's pure Go signs and recovers in about 60 times
// libsecp256k1's time (the detector instruments decred's field arithmetic; it does not see into
// C): 19 s more CPU in the race tests of the packages that sign most, api/sim 13 s of it, against
// about 0.1 s saved on each race build's link (0.33 s in a plain build). So a race build signs,
// recovers and makes keys in libsecp256k1.
func init() {
	UseLinked(Funcs{Sign: crypto.Sign, Ecrecover: crypto.Ecrecover, ToECDSA: crypto.ToECDSA, GenerateKey: crypto.GenerateKey})
}
