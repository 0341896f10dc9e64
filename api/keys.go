package api

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/tradedesk/tradedesk/api/text"
	"golang.org/x/term"
)

// Environment variables the key loaders read.
const (
	EnvPrivateKey = "TRADEDESK_PRIVATE_KEY"
	EnvPassphrase = "TRADEDESK_PASSPHRASE"
)

// TakeSecretEnv reads TRADEDESK_PRIVATE_KEY and TRADEDESK_PASSPHRASE once and removes them from
// the process environment, so that no child process, library or later os.Getenv sees them. The
// function it returns answers those two names from what was read (an unset one: "") and any
// other name from the environment: the Getenv a front end loads keys with (Credentials.Getenv).
func TakeSecretEnv() func(string) string {
	taken := map[string]string{}
	for _, name := range []string{EnvPrivateKey, EnvPassphrase} {
		taken[name] = os.Getenv(name)
		_ = os.Unsetenv(name)
	}
	return func(name string) string {
		if v, ok := taken[name]; ok {
			return v
		}
		return os.Getenv(name)
	}
}

// SignerFromHex makes a signer from a 32-byte private key in hex, with or without 0x. Errors
// describe the problem (length, non-hex, out of range) and never repeat the key.
func SignerFromHex(keyHex string) (*Signer, error) {
	s := strings.TrimSpace(keyHex)
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		s = s[2:]
	}
	if s == "" {
		return nil, errors.New("private key is empty")
	}
	if len(s) != 64 {
		return nil, fmt.Errorf("private key must be 64 hex digits (32 bytes), with or without 0x; got %d characters", len(s))
	}
	raw := make([]byte, 32)
	defer clear(raw)
	if _, err := hex.Decode(raw, []byte(s)); err != nil {
		return nil, errors.New("private key is not valid hex (use 0-9 and a-f only)")
	}
	key, err := crypto.ToECDSA(raw)
	if err != nil {
		return nil, errors.New("private key is not a valid secp256k1 key (zero or above the curve order)")
	}
	return NewSigner(key)
}

// NewRandomSigner makes a signer with a fresh random key that exists only in memory (the demo
// wallet's).
func NewRandomSigner() (*Signer, error) {
	key, err := crypto.GenerateKey()
	if err != nil {
		return nil, fmt.Errorf("signer: could not make a random key: %w", err)
	}
	return NewSigner(key)
}

// SignerFromEnv makes a signer from TRADEDESK_PRIVATE_KEY. ok is false (with a nil error) when the
// variable is not set.
func SignerFromEnv() (s *Signer, ok bool, err error) {
	v, set := os.LookupEnv(EnvPrivateKey)
	if !set {
		return nil, false, nil
	}
	s, err = SignerFromHex(v)
	if err != nil {
		return nil, true, fmt.Errorf("%s: %w", EnvPrivateKey, err)
	}
	return s, true, nil
}

// SignerFromKeystore decrypts a V3 keystore file (as geth and most wallets write) with passphrase.
func SignerFromKeystore(path string, passphrase string) (*Signer, error) {
	data, err := readKeystore(path)
	if err != nil {
		return nil, err
	}
	return SignerFromKeystoreJSON(data, passphrase)
}

// MaxKeystoreSize is the largest keystore file read: a V3 keystore is well under a kilobyte, and
// a bigger file (a log, a disk image, a device given by mistake) is refused before it is read.
const MaxKeystoreSize = 1 << 20

// readKeystore reads a keystore file of at most MaxKeystoreSize bytes; its error names the file
// in brief (text.Quote), as a key pasted into --keystore would otherwise come back in
// "open <key>: no such file".
func readKeystore(path string) ([]byte, error) {
	f, err := os.Open(path)
	var pe *os.PathError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("keystore %s: %w", text.Quote(path), pe.Err)
	}
	if err != nil {
		return nil, fmt.Errorf("keystore: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxKeystoreSize+1))
	if errors.As(err, &pe) {
		err = pe.Err // "read <path>: is a directory" would repeat the path in full
	}
	if err != nil {
		return nil, fmt.Errorf("keystore %s: %w", text.Quote(path), err)
	}
	if len(data) > MaxKeystoreSize {
		return nil, fmt.Errorf("keystore %s is over 1 MiB, and a V3 keystore file is under a kilobyte: give the keystore's own file", text.Quote(path))
	}
	return data, nil
}

// SignerFromKeystoreJSON decrypts V3 keystore JSON with passphrase. A keystore whose key
// derivation would take more than a few seconds (see checkKDF) is refused before any work.
func SignerFromKeystoreJSON(data []byte, passphrase string) (*Signer, error) {
	if err := checkKDF(data); err != nil {
		return nil, err
	}
	k, err := keystore.DecryptKey(data, passphrase)
	if err != nil {
		if errors.Is(err, keystore.ErrDecrypt) {
			return nil, errors.New("keystore: wrong passphrase (could not decrypt the key)")
		}
		return nil, fmt.Errorf("keystore: not a usable V3 keystore file: %v", err)
	}
	return NewSigner(k.PrivateKey)
}

// The costliest key derivation a keystore may ask for. The standard scrypt parameters (N 262144,
// r 8, p 1: about a second and 256 MiB) may grow to twice their work; a file asking for more,
// by mistake or to hang the start, is refused with a message. PBKDF2 is bounded the same way.
const (
	standardScryptWork = 262144 * 8
	maxScryptWork      = 2 * standardScryptWork // N*r*p
	maxScryptMemory    = 2 * standardScryptWork // N*r, times 128 bytes
	maxPBKDF2Rounds    = 10_000_000
)

// checkKDF refuses a keystore whose KDF parameters would take more than a few seconds (or a
// gigabyte) to derive the key from the passphrase.
func checkKDF(data []byte) error {
	var ks struct {
		Crypto  *kdfJSON `json:"crypto"`
		Crypto2 *kdfJSON `json:"Crypto"`
	}
	if json.Unmarshal(data, &ks) != nil {
		return nil // keystore.DecryptKey says what is wrong with it
	}
	c := ks.Crypto
	if c == nil {
		c = ks.Crypto2
	}
	if c == nil {
		return nil
	}
	p := c.Params
	switch strings.ToLower(c.KDF) {
	case "scrypt":
		if p.N*p.R > maxScryptMemory || p.N*p.R*p.P > maxScryptWork {
			return fmt.Errorf("keystore: its scrypt parameters (n %.0f, r %.0f, p %.0f) would take far longer than the standard n 262144, r 8, p 1 "+
				"to open, and tie up the start; re-encrypt the key with the standard parameters", p.N, p.R, p.P)
		}
	case "pbkdf2":
		if p.C > maxPBKDF2Rounds {
			return fmt.Errorf("keystore: its pbkdf2 parameters (c %.0f) would take far too long to open; re-encrypt the key with the standard parameters", p.C)
		}
	}
	return nil
}

// kdfJSON is the part of a V3 keystore that says how the key is derived. The numbers are read as
// float64 so that a huge one is compared, not rejected as an overflow.
type kdfJSON struct {
	KDF    string `json:"kdf"`
	Params struct {
		N, R, P, C float64
	} `json:"kdfparams"`
}

// PassphraseFunc returns a keystore passphrase when called.
type PassphraseFunc func() (string, error)

// PassphraseSource returns TRADEDESK_PASSPHRASE when it is set, and otherwise a function that
// prompts on the terminal (/dev/tty) without echo. prompt is shown before reading.
func PassphraseSource(prompt string) PassphraseFunc {
	if v, ok := os.LookupEnv(EnvPassphrase); ok {
		return func() (string, error) { return v, nil }
	}
	return func() (string, error) { return promptTTY(prompt) }
}

func promptTTY(prompt string) (string, error) {
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return "", fmt.Errorf("no terminal to ask for the keystore passphrase: set %s", EnvPassphrase)
	}
	defer tty.Close()
	if _, err := fmt.Fprint(tty, prompt); err != nil {
		return "", err
	}
	pw, err := term.ReadPassword(int(tty.Fd()))
	_, _ = fmt.Fprintln(tty)
	if err != nil {
		return "", fmt.Errorf("reading the passphrase: %v", err)
	}
	return string(pw), nil
}

// ChecksumAddress validates a 0x-prefixed 20-byte hex address and returns its EIP-55 form. It
// rejects a missing prefix, wrong length, non-hex digits, and a mixed-case address whose
// capitalisation is not its checksum (a likely typo). All-lower or all-upper input is accepted.
func ChecksumAddress(s string) (string, error) {
	if len(s) < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return "", fmt.Errorf("address %s must start with 0x", text.Quote(s))
	}
	h := s[2:]
	if len(h) != 40 {
		return "", fmt.Errorf("address %s must have 40 hex digits after 0x, has %d", text.Quote(s), len(h))
	}
	var raw [20]byte
	if _, err := hex.Decode(raw[:], []byte(h)); err != nil {
		return "", fmt.Errorf("address %s is not hex", text.Quote(s))
	}
	sum := common.Address(raw).Hex()
	if h != strings.ToLower(h) && h != strings.ToUpper(h) && h != sum[2:] {
		return "", fmt.Errorf("address %s has a bad EIP-55 checksum: check it for typos (or write it all in lower case)", s)
	}
	return sum, nil
}

// IsChecksummed reports whether s is exactly its EIP-55 form.
func IsChecksummed(s string) bool {
	c, err := ChecksumAddress(s)
	return err == nil && c == s
}

// SameAddress reports whether a and b are the same valid address, whatever their case.
func SameAddress(a, b string) bool {
	ca, err1 := ChecksumAddress(a)
	cb, err2 := ChecksumAddress(b)
	return err1 == nil && err2 == nil && ca == cb
}
