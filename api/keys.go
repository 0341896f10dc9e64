package api

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/tradedesk/tradedesk/api/internal/secp"
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
	key, err := secp.KeyFromBytes(raw)
	if err != nil {
		return nil, errors.New("private key is not a valid secp256k1 key (zero or above the curve order)")
	}
	return NewSigner(key)
}

// NewRandomSigner makes a signer with a fresh random key that exists only in memory (the demo
// wallet's).
func NewRandomSigner() (*Signer, error) {
	key, err := secp.GenerateKey()
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

// AskPassphrase asks for a passphrase on the terminal (/dev/tty) without echo.
func AskPassphrase(prompt string) (string, error) { return promptTTY(prompt) }

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
