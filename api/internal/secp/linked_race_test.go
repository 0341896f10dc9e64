//go:build race && cgo

package secp

import "testing"

// TestRaceBuildSignsInLibsecp256k1: a race build signs and recovers in libsecp256k1, whose C the
// detector does not slow, not in pure Go.
func TestRaceBuildSignsInLibsecp256k1(t *testing.T) {
	if !Linked() {
		t.Fatal("a race build did not hand go-ethereum's crypto.Sign and Ecrecover to UseLinked")
	}
}
