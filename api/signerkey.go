package api

import (
	"crypto/ecdsa"

	"github.com/tradedesk/tradedesk/api/internal/signerkey"
)

func init() {
	signerkey.Of = func(s any) *ecdsa.PrivateKey { return s.(*Signer).key }
}
