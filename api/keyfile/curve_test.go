//go:build cgo

package keyfile

import (
	"testing"

	"github.com/tradedesk/tradedesk/api/internal/secp"
)

// TestKeystoreBinariesSignInLibsecp256k1: a binary that links the keystore (and so, with cgo,
// libsecp256k1) signs and recovers there, not in secp's slower pure Go.
func TestKeystoreBinariesSignInLibsecp256k1(t *testing.T) {
	if !secp.Linked() {
		t.Fatal("api/keyfile did not hand go-ethereum's crypto.Sign and Ecrecover to secp.UseLinked")
	}
}
