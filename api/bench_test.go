package api

import (
	"testing"

	"github.com/tradedesk/tradedesk/api/internal/secp"
)

func benchOrder() *PlaceOrderData {
	return &PlaceOrderData{
		Orders: []OrderWire{{InstrumentID: 1, Side: "b", PositionSide: "BOTH", Price: "50000.5", Size: "0.1",
			Tif: "GTC", Cloid: "9c29fda4-79b4-47da-a788-568703333134"}},
		ExpiresAfter: vecNonce + 60000, Nonce: vecNonce,
	}
}

// BenchmarkSignOrder signs one placeOrder action with one order end to end: MessagePack, keccak,
// EIP-712 digest, secp256k1 signature, hex.
func BenchmarkSignOrder(b *testing.B) {
	s := testSigner(b, testKey)
	d := benchOrder()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.SignAction(SourceMainnet, TxPlaceOrder, d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSignFloor is the least any signer must do for the same action: keccak of the same
// MessagePack bytes and one secp256k1 signature of a digest.
func BenchmarkSignFloor(b *testing.B) {
	s := testSigner(b, testKey)
	msg := benchOrder().AppendMsgpack(nil)
	b.ReportAllocs()
	for b.Loop() {
		h := secp.Keccak256(msg)
		if _, err := secp.Sign(h, s.key); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeSignedRequest is the simulator's per-request cost of authenticating an order.
func BenchmarkDecodeSignedRequest(b *testing.B) {
	s := testSigner(b, testKey)
	body, err := s.EncodeRequest(SourceMainnet, ActionPlaceOrder, benchOrder())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeSignedRequest(body, SourceMainnet); err != nil {
			b.Fatal(err)
		}
	}
}
