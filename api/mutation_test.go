package api

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"

	"github.com/tradedesk/tradedesk/api/internal/secp"
)

// Tests that guard mutations of the signer and its MessagePack encoding the other tests let live
// (issue #25; `go run ./.ci/mutate -pkg api` lists them). Each comment names its mutation.

// Guards every header boundary (a < moved to <=, a <= to <): the last length of each form and
// the first of the next.
func TestMsgpackHeaderBoundaries(t *testing.T) {
	for _, c := range []struct {
		n          int
		mapH, arrH string
	}{
		{15, "8f", "9f"}, {16, "de0010", "dc0010"}, {65535, "deffff", "dcffff"}, {65536, "df00010000", "dd00010000"},
	} {
		if got := hex.EncodeToString(appendMapHeader(nil, c.n)); got != c.mapH {
			t.Errorf("map header %d = %s, want %s", c.n, got, c.mapH)
		}
		if got := hex.EncodeToString(appendArrayHeader(nil, c.n)); got != c.arrH {
			t.Errorf("array header %d = %s, want %s", c.n, got, c.arrH)
		}
	}
	for _, c := range []struct {
		n      int
		header string
	}{{65535, "daffff"}, {65536, "db00010000"}} {
		if got := appendStr(nil, strings.Repeat("x", c.n)); hex.EncodeToString(got[:len(c.header)/2]) != c.header {
			t.Errorf("str of %d: header %x, want %s", c.n, got[:5], c.header)
		}
	}
	for _, c := range []struct {
		v    int64
		want string
	}{
		{-32768, "d18000"}, {-2147483648, "d280000000"}, {-2147483649, "d3ffffffff7fffffff"}, {-31, "e1"}, {-127, "d081"},
	} {
		if got := hex.EncodeToString(appendInt(nil, c.v)); got != c.want {
			t.Errorf("appendInt(%d) = %s, want %s", c.v, got, c.want)
		}
	}
}

// referenceDigest is the EIP-712 digest of Action{source, hash, txType} written out step by step
// from the spec, independent of the pooled hasher.
func referenceDigest(source string, actionHash [32]byte, txType uint16) [32]byte {
	var chain, contract, tx [32]byte
	chain[31] = DomainChainID
	copy(contract[12:], hexAddr(DomainVerifyingContract))
	binary.BigEndian.PutUint16(tx[30:], txType)
	domain := secp.Keccak256(
		secp.Keccak256([]byte("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)")),
		secp.Keccak256([]byte(DomainName)), secp.Keccak256([]byte(DomainVersion)), chain[:], contract[:])
	structHash := secp.Keccak256(secp.Keccak256([]byte("Action(string source,bytes32 hash,uint16 txType)")),
		secp.Keccak256([]byte(source)), actionHash[:], tx[:])
	var out [32]byte
	copy(out[:], secp.Keccak256([]byte{0x19, 0x01}, domain, structHash))
	return out
}

func hexAddr(s string) []byte {
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil {
		panic(err)
	}
	return b
}

// Guards digest: a source other than Mainnet and Testnet hashed as Mainnet (or not at all), the
// tx type written at the wrong place or byte order, the 0x1901 prefix, the domain's chain id.
func TestTypedDataDigestMatchesReference(t *testing.T) {
	var h [32]byte
	copy(h[:], secp.Keccak256([]byte("an action")))
	for _, source := range []string{SourceMainnet, SourceTestnet, "Devnet", ""} {
		for _, tx := range []uint16{0, 1, 1301, 0xffff} {
			if got, want := TypedDataDigest(source, h, tx), referenceDigest(source, h, tx); got != want {
				t.Errorf("digest(%q, %d) = %x, want %x", source, tx, got, want)
			}
		}
	}
}

// Guards RecoverAddress's v check (> 1 moved to > 2: v 2 or 29 then fails later, with a message
// that does not say what is wrong) and DecodeSignature's prefix check (0X
// refused): v may be 27, 28, 0 or 1 and nothing else; the prefix 0x or 0X.
func TestSignatureRecoveryByte(t *testing.T) {
	vf := loadVectors(t)
	s := testSigner(t, vf.PrivateKey)
	var dg [32]byte
	dg[5] = 9
	sig, err := s.SignDigest(dg)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []byte{2, 3, 26, 29, 30} {
		bad := sig
		bad[64] = v
		want := fmt.Sprintf("signature recovery byte v is %d: want 27 or 28", v)
		if addr, err := RecoverAddress(dg, bad[:]); err == nil || err.Error() != want {
			t.Errorf("v = %d: recovered %q, error %v; want the error %q", v, addr, err, want)
		}
	}
	for _, v := range []byte{sig[64], sig[64] - 27} {
		good := sig
		good[64] = v
		if addr, err := RecoverAddress(dg, good[:]); err != nil || addr != s.Address() {
			t.Errorf("v = %d: %s %v", v, addr, err)
		}
	}
	upper := "0X" + hex.EncodeToString(sig[:])
	if got, err := DecodeSignature(upper); err != nil || got != sig {
		t.Errorf("0X prefix: %v", err)
	}
}

// Guards MarginOrder: a trigger order valued without its trigger price, and a leverage under 1
// not counted as 1. A buy stop for 1 BTC triggering at 101,000 with a limit of 100,500 and the
// mark at 100,000 is valued at 101,000; at 0.5x it needs the full 101,000 of margin.
func TestMarginOrderValuedAtTriggerAndLeverageAtLeastOne(t *testing.T) {
	o := MarginOrder{Buy: true, Size: decimal.NewFromInt(1), Price: decimal.NewFromInt(100500), Trigger: decimal.NewFromInt(101000),
		Mark: decimal.NewFromInt(100000), Leverage: decimal.RequireFromString("0.5"), TakerFee: decimal.Zero}
	n := o.Need()
	if !n.Price.Equal(decimal.NewFromInt(101000)) || !n.Margin.Equal(decimal.NewFromInt(101000)) {
		t.Fatalf("valued at %s with margin %s, want 101000 and 101000", n.Price, n.Margin)
	}
}
