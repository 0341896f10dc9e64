// Package secp signs digests and recovers their signers on secp256k1 exactly as go-ethereum's
// crypto package does, on the pure-Go curve that package itself uses when built without cgo
// (decred's secp256k1): a binary that signs or checks a signature then links no libsecp256k1
// and needs no gcc to link. Signatures are [R || S || V]: V is the recovery id 0 or 1 and S is
// in the lower half of the group order; nonces are RFC 6979's, so the bytes equal crypto.Sign's.
package secp

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"errors"
	"math/big"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	decred "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/ethereum/go-ethereum/common"
)

// DigestLen is the length of the digest Sign signs and Ecrecover recovers from.
const DigestLen = 32

// SignatureLen is the length of an [R || S || V] signature.
const SignatureLen = 65

// compactMagic is what decred's compact signatures add to the recovery id in their first byte.
const compactMagic = 27

// Order returns the order n of secp256k1's group (a copy: the caller may change it).
func Order() *big.Int { return new(big.Int).Set(secp256k1.S256().Params().N) }

// IsCurve reports whether c is secp256k1, whichever package's value it is (go-ethereum's cgo
// curve, which its keystore's keys carry, or decred's, which this package's keys carry).
func IsCurve(c elliptic.Curve) bool {
	if c == nil {
		return false
	}
	p, want := c.Params(), secp256k1.S256().Params()
	return p != nil && p.BitSize == want.BitSize && p.P.Cmp(want.P) == 0 && p.N.Cmp(want.N) == 0 &&
		p.B.Cmp(want.B) == 0 && p.Gx.Cmp(want.Gx) == 0 && p.Gy.Cmp(want.Gy) == 0
}

// KeyFromBytes makes a private key of the 32 big-endian bytes b. Like crypto.ToECDSA it refuses
// any other length, zero, and a value at or above the group order.
func KeyFromBytes(b []byte) (*ecdsa.PrivateKey, error) {
	if linked.ToECDSA == nil {
		return PureKeyFromBytes(b)
	}
	if _, err := scalarOf(b); err != nil {
		return nil, err
	}
	return linked.ToECDSA(b)
}

// PureKeyFromBytes is KeyFromBytes in pure Go, whatever UseLinked set.
func PureKeyFromBytes(b []byte) (*ecdsa.PrivateKey, error) {
	k, err := scalarOf(b)
	if err != nil {
		return nil, err
	}
	priv := secp256k1.NewPrivateKey(&k)
	defer priv.Zero()
	return priv.ToECDSA(), nil
}

func scalarOf(b []byte) (secp256k1.ModNScalar, error) {
	var k secp256k1.ModNScalar
	if len(b) != 32 {
		return k, errors.New("invalid length, need 256 bits")
	}
	if k.SetByteSlice(b) {
		return k, errors.New("invalid private key, >=N")
	}
	if k.IsZero() {
		return k, errors.New("invalid private key, zero or negative")
	}
	return k, nil
}

// GenerateKey makes a private key from the system's random source.
func GenerateKey() (*ecdsa.PrivateKey, error) {
	if linked.GenerateKey != nil {
		return linked.GenerateKey()
	}
	priv, err := secp256k1.GeneratePrivateKey()
	if err != nil {
		return nil, err
	}
	defer priv.Zero()
	return priv.ToECDSA(), nil
}

// Sign signs a 32-byte digest with key and returns [R || S || V], V 0 or 1, S low: the bytes
// crypto.Sign returns. The digest must come from a hash, never straight from an adversary.
func Sign(digest []byte, key *ecdsa.PrivateKey) ([]byte, error) {
	if linked.Sign == nil {
		return PureSign(digest, key)
	}
	raw, err := checkSign(digest, key)
	clear(raw[:])
	if err != nil {
		return nil, err
	}
	return linked.Sign(digest, key)
}

func checkSign(digest []byte, key *ecdsa.PrivateKey) ([32]byte, error) {
	if len(digest) != DigestLen {
		return [32]byte{}, errors.New("digest must be 32 bytes")
	}
	return KeyBytes(key)
}

// KeyBytes is key's private scalar in 32 big-endian bytes (crypto.FromECDSA's), or an error for
// a key with none or a negative one or one over 32 bytes. The caller clears what it is given.
func KeyBytes(key *ecdsa.PrivateKey) ([32]byte, error) {
	var raw [32]byte
	if key == nil {
		return raw, errors.New("invalid private key")
	}
	//lint:ignore SA1019 crypto/ecdsa's Bytes has no secp256k1: D is the one way to the scalar
	d := key.D
	if d == nil || d.Sign() <= 0 || d.BitLen() > 256 {
		return raw, errors.New("invalid private key")
	}
	d.FillBytes(raw[:])
	return raw, nil
}

// PureSign is Sign in pure Go, whatever UseLinked set.
func PureSign(digest []byte, key *ecdsa.PrivateKey) ([]byte, error) {
	raw, err := checkSign(digest, key)
	if err != nil {
		return nil, err
	}
	var priv secp256k1.PrivateKey
	overflow := priv.Key.SetBytes(&raw) != 0
	clear(raw[:])
	defer priv.Zero()
	if overflow || priv.Key.IsZero() {
		return nil, errors.New("invalid private key")
	}
	// SignCompact returns V first (27 plus the recovery id, for an uncompressed key) then R, S.
	sig := decred.SignCompact(&priv, digest, false)
	v := sig[0] - compactMagic
	copy(sig, sig[1:])
	sig[SignatureLen-1] = v
	return sig, nil
}

// Ecrecover returns the 65-byte uncompressed public key that made sig ([R || S || V], V 0 to 3)
// over digest. Like crypto.Ecrecover it refuses a wrong length, V above 3, R or S zero or at or
// above the order, and an R that is no point's x; it accepts a high S, as libsecp256k1 does.
func Ecrecover(digest, sig []byte) ([]byte, error) {
	if linked.Ecrecover == nil {
		return PureEcrecover(digest, sig)
	}
	if err := checkRecover(digest, sig); err != nil {
		return nil, err
	}
	return linked.Ecrecover(digest, sig)
}

func checkRecover(digest, sig []byte) error {
	if len(sig) != SignatureLen {
		return errors.New("invalid signature length")
	}
	if len(digest) != DigestLen {
		return errors.New("digest must be 32 bytes")
	}
	if sig[SignatureLen-1] > 3 {
		return errors.New("invalid signature recovery id")
	}
	return nil
}

// PureEcrecover is Ecrecover in pure Go, whatever UseLinked set.
func PureEcrecover(digest, sig []byte) ([]byte, error) {
	if err := checkRecover(digest, sig); err != nil {
		return nil, err
	}
	var compact [SignatureLen]byte
	compact[0] = sig[SignatureLen-1] + compactMagic
	copy(compact[1:], sig[:SignatureLen-1])
	pub, _, err := decred.RecoverCompact(compact[:], digest)
	if err != nil {
		return nil, err
	}
	return pub.SerializeUncompressed(), nil
}

// RecoverAddress returns the address of the key that made sig over digest (see Ecrecover).
func RecoverAddress(digest, sig []byte) (common.Address, error) {
	pub, err := Ecrecover(digest, sig)
	if err != nil {
		return common.Address{}, err
	}
	return addressOf(pub[1:]), nil
}

// PubkeyToAddress is the address of a public key: the last 20 bytes of the Keccak-256 of its
// X and Y, as crypto.PubkeyToAddress.
func PubkeyToAddress(pub ecdsa.PublicKey) common.Address {
	var xy [64]byte
	//lint:ignore SA1019 crypto/ecdsa's Bytes has no secp256k1: X and Y are the one way to the point
	x, y := pub.X, pub.Y
	x.FillBytes(xy[:32])
	y.FillBytes(xy[32:])
	return addressOf(xy[:])
}

func addressOf(xy []byte) common.Address {
	var a common.Address
	copy(a[:], Keccak256(xy)[12:])
	return a
}
