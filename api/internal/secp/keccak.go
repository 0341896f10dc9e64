package secp

import (
	"hash"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto/keccak"
)

// KeccakState is a Keccak-256 hash that can also Read its sum into a buffer without allocating.
type KeccakState interface {
	hash.Hash
	Read([]byte) (int, error)
}

// NewKeccakState returns a fresh Keccak-256 (Ethereum's legacy padding, not SHA3-256).
func NewKeccakState() KeccakState { return keccak.NewLegacyKeccak256().(KeccakState) }

var keccakPool = sync.Pool{New: func() any { return NewKeccakState() }}

// Keccak256 is the Keccak-256 of the concatenation of data.
func Keccak256(data ...[]byte) []byte {
	h := Keccak256Hash(data...)
	return h[:]
}

// Keccak256Hash is Keccak256 as a common.Hash.
func Keccak256Hash(data ...[]byte) (h common.Hash) {
	d := keccakPool.Get().(KeccakState)
	d.Reset()
	for _, b := range data {
		d.Write(b)
	}
	d.Read(h[:])
	keccakPool.Put(d)
	return h
}
