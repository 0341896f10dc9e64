package api

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func FuzzDecodeSignedRequest(f *testing.F) {
	vf := loadVectors(f)
	for _, v := range vf.Vectors {
		f.Add([]byte(v.RequestBody))
	}
	f.Add([]byte(`{"action":{"type":1311,"data":{"nonce":1}},"signature":"0x00","nonce":"1"}`))
	f.Add([]byte(`{"action":{"type":"placeOrder","data":{"orders":[{}],"nonce":1}},"signature":null,"nonce":1}`))
	f.Add([]byte(`{"action":null}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		req, err := DecodeSignedRequest(body, SourceMainnet)
		if err != nil {
			if !IsRequestError(err) {
				t.Fatalf("error %T is not a *RequestError", err)
			}
			return
		}
		if req.Data == nil || req.Signer == "" || !IsChecksummed(req.Signer) {
			t.Fatalf("accepted without data or signer: %+v", req)
		}
	})
}

func FuzzRecoverAddress(f *testing.F) {
	vf := loadVectors(f)
	for _, v := range vf.Vectors {
		d, _ := hexBytes(v.Digest)
		s, _ := hexBytes(v.Signature)
		f.Add(d, s)
	}
	f.Add(make([]byte, 32), make([]byte, 65))
	f.Add([]byte{1}, []byte{2})
	f.Fuzz(func(t *testing.T, digest, sig []byte) {
		var d [32]byte
		copy(d[:], digest)
		addr, err := RecoverAddress(d, sig)
		if err == nil && !IsChecksummed(addr) {
			t.Fatalf("recovered a bad address %q", addr)
		}
	})
}

func hexBytes(s string) ([]byte, error) { return hex.DecodeString(strings.TrimPrefix(s, "0x")) }

// FuzzResponseDecoders feeds arbitrary bytes to every record decoder and tx response helper:
// errors are fine, panics are not.
func FuzzResponseDecoders(f *testing.F) {
	files, _ := filepath.Glob("testdata/info/*.json")
	for _, name := range files {
		b, _ := os.ReadFile(name)
		f.Add(b)
	}
	for _, tx := range []uint16{TxPlaceOrder, TxCancelByOid, TxCancelAll, TxSpotWithdraw} {
		f.Add([]byte(txAnswer(tx)))
	}
	f.Add([]byte(`{"data":{"status":[{"resting":{"oid":"1"}},{"filled":null},"x",7]}}`))
	f.Add([]byte(`{"error":{"code":1},"type":"error","message":null}`))
	f.Add([]byte(`{"data":[],"page":1,"limit":5,"total_count":"9","totalPages":2,"hasNext":true,"hasPrev":false}`))
	f.Add([]byte(`{"coll_risk":[{"weightTiers":[{"amount":1,"weight":0.9}],"max_margin_cap":5}],"bridge_by_chain":[{"bridgeChainId":"1"}]}`))
	f.Add([]byte(`{"instrument_name":"BTC-PERP","symbol":"X","bids":[[1,2]],"sequence_number":"12"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, d := range []func([]byte) (any, error){
			decodeInto[AccountSummary](), decodeInto[Page[BrokerApproval]](), decodeInto[Instruments](),
			decodeInto[[]Candle](), decodeInto[Page[Fill]](), decodeInto[Page[OrderRecord]](),
			decodeInto[InstrumentLeverage](), decodeInto[[]Collateral](), decodeInto[[]Position](),
			decodeInto[[]Ticker](), decodeInto[[]Mid](), decodeInto[OrderBook](),
			decodeInto[Page[FundingPayment]](), decodeInto[[]TransferRecord](), decodeInto[UserFees](),
			decodeInto[[]AccountSnapshot](), decodeInto[Oracle](), decodeInto[CollateralRisk](), decodeInto[Bridge](),
		} {
			_, _ = d(b)
		}
		_, _ = serverMessage(b)
		var tx TxResponse
		if json.Unmarshal(b, &tx) == nil {
			_, _ = tx.OrderStatuses()
			_, _ = tx.OrderIDs()
			_, _ = tx.CancelStatuses()
			_, _ = tx.CancelCount()
			_, _ = tx.WithdrawalNonce()
		}
		resp := &response{status: 200, body: b}
		_, _ = txOutcome("fuzz", resp, nil)
		var sum AccountSummary
		_ = New("http://x").decodeResult(context.Background(), "fuzz", resp, &sum)
		var pg Page[Fill]
		_ = New("http://x").decodeResult(context.Background(), "fuzz", resp, pageOf(&pg))
		_ = debugBody(b)
		_ = redactSignatures(string(b))
		r := TxResponse{Data: bytes.TrimSpace(b)}
		_, _ = r.OrderStatuses()
		_, _ = r.CancelCount()
		_, _ = r.WithdrawalNonce()
	})
}
