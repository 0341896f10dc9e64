// Package keyfile reads and writes a key in an encrypted key file (Web3 secret storage, the V3
// keystore geth and most wallets write) and loads a front end's trading key (LoadSigner). It is
// apart from package api so that what only reads the exchange links no go-ethereum keystore.
package keyfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// Open decrypts a V3 keystore file (as geth and most wallets write) with passphrase.
func Open(path string, passphrase string) (*api.Signer, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return Decrypt(data, passphrase)
}

// MaxSize is the largest keystore file read: a V3 keystore is well under a kilobyte, and
// a bigger file (a log, a disk image, a device given by mistake) is refused before it is read.
const MaxSize = 1 << 20

// readFile reads a keystore file of at most MaxSize bytes; its error names the file
// in brief (text.Quote), as a key pasted into --keystore would otherwise come back in
// "open <key>: no such file".
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	var pe *os.PathError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("keystore %s: %w", text.Quote(path), pe.Err)
	}
	if err != nil {
		return nil, fmt.Errorf("keystore: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if errors.As(err, &pe) {
		err = pe.Err // "read <path>: is a directory" would repeat the path in full
	}
	if err != nil {
		return nil, fmt.Errorf("keystore %s: %w", text.Quote(path), err)
	}
	if len(data) > MaxSize {
		return nil, fmt.Errorf("keystore %s is over 1 MiB, and a V3 keystore file is under a kilobyte: give the keystore's own file", text.Quote(path))
	}
	return data, nil
}

// Decrypt decrypts V3 keystore JSON with passphrase. A keystore whose key
// derivation would take more than a few seconds (see checkKDF) is refused before any work.
func Decrypt(data []byte, passphrase string) (*api.Signer, error) {
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
	return api.NewSigner(k.PrivateKey)
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
