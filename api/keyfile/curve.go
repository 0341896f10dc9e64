//go:build cgo

package keyfile

import (
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tradedesk/tradedesk/api/internal/secp"
)

// A binary that links the keystore links go-ethereum's crypto package, and built with cgo its
// libsecp256k1: it signs and recovers there, faster than secp's pure Go, with the same bytes
// (TestPureGoSignMatchesGoEthereum). Without cgo crypto signs on secp's own curve: nothing to gain.
func init() { secp.UseLinked(crypto.Sign, crypto.Ecrecover) }
