package api

import (
	"crypto/ecdsa"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"github.com/tradedesk/tradedesk/api/internal/secp"
)

// Sources of the EIP-712 Action message, one per network.
const (
	SourceMainnet = "Mainnet"
	SourceTestnet = "Testnet"
)

// The EIP-712 domain every network signs in (protocol.md, Signing).
const (
	DomainName              = "HotstuffCore"
	DomainVersion           = "1"
	DomainChainID           = 1
	DomainVerifyingContract = "0x1234567890123456789012345678901234567890"
)

// SignatureLen is the length of an r||s||v signature in bytes.
const SignatureLen = 65

var (
	domainSeparator = computeDomainSeparator()
	actionTypeHash  = secp.Keccak256Hash([]byte("Action(string source,bytes32 hash,uint16 txType)"))
	mainnetHash     = secp.Keccak256Hash([]byte(SourceMainnet))
	testnetHash     = secp.Keccak256Hash([]byte(SourceTestnet))
)

func computeDomainSeparator() common.Hash {
	typeHash := secp.Keccak256([]byte("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)"))
	var chain, contract [32]byte
	chain[31] = DomainChainID
	copy(contract[12:], common.HexToAddress(DomainVerifyingContract).Bytes())
	return secp.Keccak256Hash(typeHash,
		secp.Keccak256([]byte(DomainName)), secp.Keccak256([]byte(DomainVersion)),
		chain[:], contract[:])
}

// hashState is one reusable keccak hasher plus scratch space for the encoded action.
type hashState struct {
	k   secp.KeccakState
	buf []byte
	pre [66]byte  // 0x19 0x01 || domainSeparator || structHash
	msg [128]byte // actionTypeHash || keccak(source) || hash || txType
	ah  [32]byte  // the action hash
	dg  [32]byte  // the digest
}

var hashPool = sync.Pool{New: func() any {
	h := &hashState{k: secp.NewKeccakState(), buf: make([]byte, 0, 1024)}
	h.pre[0], h.pre[1] = 0x19, 0x01
	copy(h.pre[2:34], domainSeparator[:])
	copy(h.msg[:32], actionTypeHash[:])
	return h
}}

func (h *hashState) sum(dst []byte, parts ...[]byte) {
	h.k.Reset()
	for _, p := range parts {
		h.k.Write(p)
	}
	h.k.Read(dst)
}

func (h *hashState) release() {
	if cap(h.buf) > 1<<16 {
		h.buf = make([]byte, 0, 1024)
	}
	hashPool.Put(h)
}

// digest computes the EIP-712 digest of Action{source, hash, txType} into h.dg.
func (h *hashState) digest(source string, actionHash *[32]byte, txType uint16) {
	switch source {
	case SourceMainnet:
		copy(h.msg[32:64], mainnetHash[:])
	case SourceTestnet:
		copy(h.msg[32:64], testnetHash[:])
	default:
		h.sum(h.msg[32:64], []byte(source))
	}
	copy(h.msg[64:96], actionHash[:])
	clear(h.msg[96:126])
	binary.BigEndian.PutUint16(h.msg[126:], txType)
	h.sum(h.pre[34:66], h.msg[:])
	h.sum(h.dg[:], h.pre[:])
}

// actionDigest encodes data and leaves its hash in h.ah and its digest in h.dg.
func (h *hashState) actionDigest(source string, txType uint16, data ActionData) {
	h.buf = data.AppendMsgpack(h.buf[:0])
	h.sum(h.ah[:], h.buf)
	h.digest(source, &h.ah, txType)
}

// ActionHash is keccak256 of the MessagePack encoding of an action's data (the `hash` field of
// the signed message).
func ActionHash(data ActionData) [32]byte {
	h := hashPool.Get().(*hashState)
	defer h.release()
	h.buf = data.AppendMsgpack(h.buf[:0])
	h.sum(h.ah[:], h.buf)
	return h.ah
}

// TypedDataDigest is the EIP-712 digest of Action{source, hash, txType} in the HotstuffCore domain:
// keccak256(0x1901 || domainSeparator || hashStruct(Action)).
func TypedDataDigest(source string, actionHash [32]byte, txType uint16) [32]byte {
	h := hashPool.Get().(*hashState)
	defer h.release()
	h.digest(source, &actionHash, txType)
	return h.dg
}

// ActionDigest is TypedDataDigest of the action's own hash: the 32 bytes that get signed.
func ActionDigest(source string, txType uint16, data ActionData) [32]byte {
	h := hashPool.Get().(*hashState)
	defer h.release()
	h.actionDigest(source, txType, data)
	return h.dg
}

// Signer holds one account's private key and signs /exchange actions with it. It never prints,
// logs or returns the key: every fmt verb shows only the address. Use NewSigner, SignerFromHex,
// SignerFromEnv or keyfile.Open to make one. A Signer is safe for concurrent use; its nonce
// source is shared by every client that uses it.
type Signer struct {
	key    *ecdsa.PrivateKey
	addr   string
	nonces *NonceSource
	// account is the account an agent key acts for ("" for an account's own key).
	account string
}

// NewSigner wraps a secp256k1 private key. It returns an error for a nil key or one that is not
// on the secp256k1 curve.
func NewSigner(key *ecdsa.PrivateKey) (*Signer, error) {
	if key == nil || key.X == nil || key.Y == nil {
		return nil, errors.New("signer: no private key given")
	}
	if !secp.IsCurve(key.Curve) {
		return nil, errors.New("signer: private key is not a secp256k1 key")
	}
	addr := secp.PubkeyToAddress(key.PublicKey).Hex()
	return &Signer{key: key, addr: addr, nonces: NewNonceSource()}, nil
}

// Address is the address of the signer's key, EIP-55 checksummed: the account itself, or for an
// agent the agent's address. Account is the account the signer acts for.
func (s *Signer) Address() string { return s.addr }

// Account is the account the signer acts for: its own address, or for an agent the account that
// registered it.
func (s *Signer) Account() string {
	if s.account != "" {
		return s.account
	}
	return s.addr
}

// IsAgent reports whether the signer is an agent key acting for another account.
func (s *Signer) IsAgent() bool { return s.account != "" }

// AsAgentFor makes a signer that signs with s's key (an agent wallet's) and acts for account,
// the account that registered the agent. It shares s's nonce source: the exchange counts nonces
// per signing key.
func (s *Signer) AsAgentFor(account string) (*Signer, error) {
	a, err := ChecksumAddress(account)
	if err != nil {
		return nil, fmt.Errorf("account: %w", err)
	}
	if a == s.addr {
		return nil, errors.New("the agent key's own address is not the account it acts for: give the account that registered the agent")
	}
	return &Signer{key: s.key, addr: s.addr, nonces: s.nonces, account: a}, nil
}

// Nonces is the signer's nonce source (strictly increasing across every client using this signer).
func (s *Signer) Nonces() *NonceSource { return s.nonces }

// String shows the signer's address only.
func (s *Signer) String() string {
	if s == nil {
		return "Signer(nil)"
	}
	if s.account != "" {
		return "Signer(agent " + s.addr + " for " + s.account + ")"
	}
	return "Signer(" + s.addr + ")"
}

// GoString shows the signer's address only (%#v).
func (s *Signer) GoString() string { return s.String() }

// Format makes every fmt verb (%v, %+v, %#v, %s, %d, %x ...) print the address only, never the key.
func (s *Signer) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(s.String())) }

// SignDigest signs a 32-byte digest and returns r||s||v with v = 27 or 28.
func (s *Signer) SignDigest(digest [32]byte) ([SignatureLen]byte, error) {
	var out [SignatureLen]byte
	sig, err := s.signDigest(digest[:])
	if err != nil {
		return out, err
	}
	copy(out[:], sig)
	return out, nil
}

// signDigest signs digest and returns r||s||v with v = 27 or 28.
func (s *Signer) signDigest(digest []byte) ([]byte, error) {
	sig, err := secp.Sign(digest, s.key)
	if err != nil {
		return nil, errors.New("signer: signing failed")
	}
	sig[64] += 27
	return sig, nil
}

// SignAction signs an action for the given source ("Mainnet" or "Testnet") and tx type and returns
// the signature as 0x-prefixed hex.
func (s *Signer) SignAction(source string, txType uint16, data ActionData) (string, error) {
	h := hashPool.Get().(*hashState)
	defer h.release()
	h.actionDigest(source, txType, data)
	sig, err := s.signDigest(h.dg[:])
	if err != nil {
		return "", err
	}
	return encodeHex(sig), nil
}

// encodeHex renders a signature as 0x-prefixed hex with one allocation.
func encodeHex(b []byte) string {
	var buf [2 + 2*SignatureLen]byte
	if len(b) > SignatureLen {
		return "0x" + hex.EncodeToString(b)
	}
	buf[0], buf[1] = '0', 'x'
	n := hex.Encode(buf[2:], b)
	return string(buf[:2+n])
}

// DecodeSignature parses a 0x-prefixed hex r||s||v signature (v 27/28, or 0/1).
func DecodeSignature(sigHex string) ([SignatureLen]byte, error) {
	var sig [SignatureLen]byte
	if len(sigHex) < 2 || sigHex[0] != '0' || (sigHex[1] != 'x' && sigHex[1] != 'X') {
		return sig, errors.New("signature must be hex with a 0x prefix")
	}
	if len(sigHex) != 2+2*SignatureLen {
		return sig, fmt.Errorf("signature must be %d bytes (%d hex digits after 0x), got %d hex digits", SignatureLen, 2*SignatureLen, len(sigHex)-2)
	}
	if _, err := hex.Decode(sig[:], []byte(sigHex[2:])); err != nil {
		return sig, errors.New("signature is not valid hex")
	}
	if v := sig[64]; v != 0 && v != 1 && v != 27 && v != 28 {
		return sig, fmt.Errorf("signature recovery byte v is %d: want 27 or 28", v)
	}
	return sig, nil
}

// RecoverAddress returns the EIP-55 address that made sig (r||s||v, v 27/28 or 0/1) over digest.
func RecoverAddress(digest [32]byte, sig []byte) (string, error) {
	if len(sig) != SignatureLen {
		return "", fmt.Errorf("signature must be %d bytes, got %d", SignatureLen, len(sig))
	}
	var rsv [SignatureLen]byte
	copy(rsv[:], sig)
	if rsv[64] >= 27 {
		rsv[64] -= 27
	}
	if rsv[64] > 1 {
		return "", fmt.Errorf("signature recovery byte v is %d: want 27 or 28", sig[64])
	}
	addr, err := secp.RecoverAddress(digest[:], rsv[:])
	if err != nil {
		return "", fmt.Errorf("signature does not recover a public key: %v", err)
	}
	return addr.Hex(), nil
}

// RecoverActionSigner returns the EIP-55 address that signed the action (data, txType) for source.
func RecoverActionSigner(source string, txType uint16, data ActionData, sigHex string) (string, error) {
	sig, err := DecodeSignature(sigHex)
	if err != nil {
		return "", err
	}
	return RecoverAddress(ActionDigest(source, txType, data), sig[:])
}
