//go:build cgo

package keyfile

import (
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tradedesk/tradedesk/api/internal/secp"
)

// A binary that links the keystore links go-ethereum's crypto package, and built with cgo its
// libsecp256k1: it signs, recovers and makes keys there, faster than secp's pure Go, with the same
// bytes (TestPureGoSignMatchesGoEthereum). Without cgo crypto uses secp's curve: nothing to gain.
func init() {
	secp.UseLinked(secp.Funcs{Sign: crypto.Sign, Ecrecover: crypto.Ecrecover, ToECDSA: crypto.ToECDSA, GenerateKey: crypto.GenerateKey})
}
