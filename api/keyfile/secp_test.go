//go:build cgo

package keyfile

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/hex"
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/internal/secp"
)

// The pure-Go signer (api/internal/secp's PureSign, PureEcrecover) against go-ethereum's crypto
// package, which this package links anyway (its keystore does) and which, built with cgo, signs
// with libsecp256k1; and secp's Sign and Ecrecover, which here call crypto's (UseLinked). Only
// with cgo: without it crypto is decred's too, and refuses less than libsecp256k1 (a V of 4, read
// as a compressed key's, and a private key over 32 bytes, cut to 32).

// equivKeys are the private keys the equivalence tests use: edge keys (1, 2, n-1, keys with
// leading zero bytes) and many drawn from a seeded source, so that a failure reproduces.
func equivKeys(t *testing.T, n int) [][]byte {
	t.Helper()
	order := secp.Order()
	edge := []*big.Int{big.NewInt(1), big.NewInt(2), new(big.Int).Sub(order, big.NewInt(1)),
		new(big.Int).Lsh(big.NewInt(1), 200), new(big.Int).Lsh(big.NewInt(0xabcdef), 100)}
	var keys [][]byte
	for _, k := range edge {
		keys = append(keys, k.FillBytes(make([]byte, 32)))
	}
	r := rand.New(rand.NewChaCha8([32]byte{'s', 'e', 'c', 'p'}))
	for len(keys) < n {
		b := make([]byte, 32)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		if v := new(big.Int).SetBytes(b); v.Sign() > 0 && v.Cmp(order) < 0 {
			keys = append(keys, b)
		}
	}
	return keys
}

// equivRounds is how many keys a test draws: under -race pure Go signs in 60 times its time.
func equivRounds(plain int) int {
	if raceBuild {
		return plain / 10
	}
	return plain
}

func seededDigest(r *rand.Rand) []byte {
	d := make([]byte, 32)
	for i := range d {
		d[i] = byte(r.Uint32())
	}
	return d
}

// TestPureGoSignMatchesGoEthereum: for 300 keys and a digest each (30 under -race),
// secp.PureKeyFromBytes gives crypto.ToECDSA's key, secp.PureSign and Sign crypto.Sign's bytes
// (with either package's key), the recovered key and address crypto.Ecrecover's and
// crypto.PubkeyToAddress's, and a Signer made of either key has the same address and signs the
// same bytes.
func TestPureGoSignMatchesGoEthereum(t *testing.T) {
	r := rand.New(rand.NewChaCha8([32]byte{'d', 'i', 'g'}))
	for _, raw := range equivKeys(t, equivRounds(300)) {
		digest := seededDigest(r)
		name := hex.EncodeToString(raw) + "/" + hex.EncodeToString(digest)
		geth, err := crypto.ToECDSA(raw)
		if err != nil {
			t.Fatalf("%s: crypto.ToECDSA: %v", name, err)
		}
		ours, err := secp.PureKeyFromBytes(raw)
		if err != nil {
			t.Fatalf("%s: secp.PureKeyFromBytes: %v", name, err)
		}
		if kb, err := secp.KeyBytes(ours); err != nil || !bytes.Equal(kb[:], crypto.FromECDSA(geth)) ||
			!bytes.Equal(crypto.FromECDSAPub(&ours.PublicKey), crypto.FromECDSAPub(&geth.PublicKey)) {
			t.Fatalf("%s: PureKeyFromBytes made another key than crypto.ToECDSA", name)
		}
		addr := crypto.PubkeyToAddress(geth.PublicKey)
		if got := secp.PubkeyToAddress(ours.PublicKey); got != addr {
			t.Fatalf("%s: address %s, go-ethereum's %s", name, got.Hex(), addr.Hex())
		}
		want, err := crypto.Sign(digest, geth)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []*ecdsa.PrivateKey{ours, geth} {
			for fn, sign := range map[string]func([]byte, *ecdsa.PrivateKey) ([]byte, error){"PureSign": secp.PureSign, "Sign": secp.Sign} {
				got, err := sign(digest, k)
				if err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%s: secp.%s = %x, %v; crypto.Sign = %x", name, fn, got, err, want)
				}
			}
		}
		checkRecovery(t, name, digest, want, addr)
		checkSigners(t, name, digest, ours, geth)
	}
}

// checkRecovery: secp recovers sig as go-ethereum does, to the signer's address.
func checkRecovery(t *testing.T, name string, digest, sig []byte, addr common.Address) {
	t.Helper()
	wantPub, err := crypto.Ecrecover(digest, sig)
	if err != nil {
		t.Fatal(err)
	}
	gotPub, err := secp.PureEcrecover(digest, sig)
	if err != nil || !bytes.Equal(gotPub, wantPub) {
		t.Fatalf("%s: secp.PureEcrecover = %x, %v; crypto.Ecrecover = %x", name, gotPub, err, wantPub)
	}
	pub, err := crypto.SigToPub(digest, sig)
	if err != nil || crypto.PubkeyToAddress(*pub) != addr {
		t.Fatalf("%s: crypto.SigToPub: %v", name, err)
	}
	if got, err := secp.RecoverAddress(digest, sig); err != nil || got != addr {
		t.Fatalf("%s: secp.RecoverAddress = %s, %v; want %s", name, got.Hex(), err, addr.Hex())
	}
}

// checkSigners: an api.Signer of go-ethereum's key (what a keystore gives) and one of secp's
// (what a hex key gives) agree on the address and the signature.
func checkSigners(t *testing.T, name string, digest []byte, ours, geth *ecdsa.PrivateKey) {
	t.Helper()
	a, err := api.NewSigner(ours)
	if err != nil {
		t.Fatal(err)
	}
	b, err := api.NewSigner(geth)
	if err != nil {
		t.Fatal(err)
	}
	sa, errA := a.SignDigest([32]byte(digest))
	sb, errB := b.SignDigest([32]byte(digest))
	if a.Address() != b.Address() || errA != nil || errB != nil || sa != sb {
		t.Fatalf("%s: signers differ: %s %x %v, %s %x %v", name, a.Address(), sa, errA, b.Address(), sb, errB)
	}
}

// malformed returns sig altered every way a signature can be bad or unusual, by name.
func malformed(sig []byte) map[string][]byte {
	n := secp.Order()
	alter := func(f func(s []byte) []byte) []byte { return f(bytes.Clone(sig)) }
	out := map[string][]byte{
		"empty": nil, "64 bytes": sig[:64], "66 bytes": append(bytes.Clone(sig), 0),
		"high S": alter(func(s []byte) []byte {
			new(big.Int).Sub(n, new(big.Int).SetBytes(s[32:64])).FillBytes(s[32:64])
			s[64] ^= 1
			return s
		}),
		"zero R":     alter(func(s []byte) []byte { clear(s[:32]); return s }),
		"zero S":     alter(func(s []byte) []byte { clear(s[32:64]); return s }),
		"R = n":      alter(func(s []byte) []byte { n.FillBytes(s[:32]); return s }),
		"S = n":      alter(func(s []byte) []byte { n.FillBytes(s[32:64]); return s }),
		"R all ones": alter(func(s []byte) []byte { copy(s[:32], bytes.Repeat([]byte{0xff}, 32)); return s }),
		"S + n":      alter(func(s []byte) []byte { return addN(s, 32, n) }),
		"R + n":      alter(func(s []byte) []byte { return addN(s, 0, n) }),
	}
	for _, v := range []byte{2, 3, 4, 27, 28, 255} {
		out[fmt.Sprintf("V %d", v)] = alter(func(s []byte) []byte { s[64] = v; return s })
	}
	return out
}

// addN adds n to the 32-byte number at s[at:] if the sum still fits in 32 bytes.
func addN(s []byte, at int, n *big.Int) []byte {
	v := new(big.Int).Add(new(big.Int).SetBytes(s[at:at+32]), n)
	if v.BitLen() <= 256 {
		v.FillBytes(s[at : at+32])
	}
	return s
}

// TestPureGoRecoveryRefusesAsGoEthereum: every malformed signature (bad V, high S, zero or
// overflowing R and S, wrong length), a wrong-length digest and random bytes are refused by
// secp.PureEcrecover and secp.Ecrecover exactly when crypto.Ecrecover refuses them, and what all accept recovers the
// same key; api.RecoverAddress refuses or accepts each as the code before secp did.
func TestPureGoRecoveryRefusesAsGoEthereum(t *testing.T) {
	r := rand.New(rand.NewChaCha8([32]byte{'b', 'a', 'd'}))
	refused, keys := 0, equivKeys(t, equivRounds(40))
	for i, raw := range keys {
		digest := seededDigest(r)
		key, _ := crypto.ToECDSA(raw)
		sig, err := crypto.Sign(digest, key)
		if err != nil {
			t.Fatal(err)
		}
		cases := malformed(sig)
		for j := range 4 {
			junk := seededDigest(r)
			junk = append(junk, seededDigest(r)...)
			cases[fmt.Sprintf("random %d", j)] = append(junk, byte(r.IntN(4)))
		}
		for what, bad := range cases {
			refused += compareRecovery(t, fmt.Sprintf("key %d, %s", i, what), digest, bad)
		}
		compareRecovery(t, fmt.Sprintf("key %d, 31-byte digest", i), digest[:31], sig)
	}
	if refused < len(keys)*8 {
		t.Fatalf("only %d malformed signatures refused: the cases are not malformed", refused)
	}
}

// compareRecovery checks secp and go-ethereum agree on sig over digest; it returns 1 when both
// refused it.
func compareRecovery(t *testing.T, name string, digest, sig []byte) int {
	t.Helper()
	want, wantErr := crypto.Ecrecover(digest, sig)
	for fn, recover := range map[string]func(_, _ []byte) ([]byte, error){"PureEcrecover": secp.PureEcrecover, "Ecrecover": secp.Ecrecover} {
		got, gotErr := recover(digest, sig)
		if (wantErr == nil) != (gotErr == nil) || !bytes.Equal(got, want) {
			t.Errorf("%s: secp.%s = %x, %v; crypto.Ecrecover = %x, %v", name, fn, got, gotErr, want, wantErr)
		}
	}
	if len(digest) == 32 {
		wantAddr, wantErr := recoverBefore([32]byte(digest), sig)
		gotAddr, gotErr := api.RecoverAddress([32]byte(digest), sig)
		if (wantErr == nil) != (gotErr == nil) || gotAddr != wantAddr {
			t.Errorf("%s: api.RecoverAddress = %s, %v; with go-ethereum %s, %v", name, gotAddr, gotErr, wantAddr, wantErr)
		}
	}
	if wantErr != nil {
		return 1
	}
	return 0
}

// recoverBefore is api.RecoverAddress as it was on go-ethereum's crypto package.
func recoverBefore(digest [32]byte, sig []byte) (string, error) {
	if len(sig) != api.SignatureLen {
		return "", fmt.Errorf("signature must be %d bytes, got %d", api.SignatureLen, len(sig))
	}
	var rsv [api.SignatureLen]byte
	copy(rsv[:], sig)
	if rsv[64] >= 27 {
		rsv[64] -= 27
	}
	if rsv[64] > 1 {
		return "", fmt.Errorf("signature recovery byte v is %d: want 27 or 28", sig[64])
	}
	pub, err := crypto.Ecrecover(digest[:], rsv[:])
	if err != nil {
		return "", err
	}
	var addr common.Address
	copy(addr[:], crypto.Keccak256(pub[1:])[12:])
	return addr.Hex(), nil
}

// TestPureGoRefusesBadKeysAsGoEthereum: a private key of the wrong length, zero, or at or above
// the order is refused by secp.PureKeyFromBytes and KeyFromBytes as by crypto.ToECDSA, and
// secp.PureSign and Sign refuse a key crypto.Sign cannot sign with; IsCurve knows both packages'
// curve and no other.
func TestPureGoRefusesBadKeysAsGoEthereum(t *testing.T) {
	n := secp.Order()
	for name, raw := range map[string][]byte{
		"zero": make([]byte, 32), "n": n.FillBytes(make([]byte, 32)),
		"n+1":      new(big.Int).Add(n, big.NewInt(1)).FillBytes(make([]byte, 32)),
		"all ones": bytes.Repeat([]byte{0xff}, 32), "31 bytes": bytes.Repeat([]byte{1}, 31),
		"33 bytes": bytes.Repeat([]byte{1}, 33), "empty": nil,
	} {
		if _, err := crypto.ToECDSA(raw); err == nil {
			t.Fatalf("%s: crypto.ToECDSA accepts it: the case is wrong", name)
		}
		if _, err := secp.PureKeyFromBytes(raw); err == nil {
			t.Errorf("%s: secp.PureKeyFromBytes accepted it", name)
		}
		if _, err := secp.KeyFromBytes(raw); err == nil {
			t.Errorf("%s: secp.KeyFromBytes accepted it", name)
		}
	}
	good, _ := crypto.ToECDSA(bytes.Repeat([]byte{7}, 32))
	digest := bytes.Repeat([]byte{9}, 32)
	for name, d := range map[string]*big.Int{"zero": new(big.Int), "n": n,
		"n+1": new(big.Int).Add(n, big.NewInt(1)), "2^256": new(big.Int).Lsh(big.NewInt(1), 256)} {
		//lint:ignore SA1019 a key no constructor makes: D out of range on purpose
		bad := &ecdsa.PrivateKey{PublicKey: good.PublicKey, D: d}
		if _, err := crypto.Sign(digest, bad); err == nil {
			t.Fatalf("%s: crypto.Sign signs with it: the case is wrong", name)
		}
		if _, err := secp.PureSign(digest, bad); err == nil {
			t.Errorf("%s: secp.PureSign signed with it", name)
		}
		if _, err := secp.Sign(digest, bad); err == nil {
			t.Errorf("%s: secp.Sign signed with it", name)
		}
	}
	if _, err := secp.PureSign(digest[:31], good); err == nil {
		t.Error("secp.PureSign signed a 31-byte digest")
	}
	if _, err := secp.Sign(digest[:31], good); err == nil {
		t.Error("secp.Sign signed a 31-byte digest")
	}
	mine, _ := secp.GenerateKey()
	if !secp.IsCurve(crypto.S256()) || !secp.IsCurve(mine.Curve) || secp.IsCurve(elliptic.P256()) || secp.IsCurve(nil) {
		t.Error("IsCurve: want true for go-ethereum's and secp's curve, false for P-256 and nil")
	}
}
