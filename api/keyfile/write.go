package keyfile

import (
	"errors"
	"fmt"
	"os"

	"github.com/ethereum/go-ethereum/accounts/keystore"
	"github.com/ethereum/go-ethereum/common"
	"github.com/google/uuid"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/internal/signerkey"
)

// Scrypt is the scrypt cost (N, P) Write encrypts with: geth's standard (about a
// second and 256 MB to open). Tests may lower it; a user's key file never should.
var Scrypt = struct{ N, P int }{keystore.StandardScryptN, keystore.StandardScryptP}

// Write writes the signer's key to a new V3 keystore file at path, encrypted with passphrase,
// readable by its owner only. It never overwrites a file. The key itself is never
// returned or printed.
func Write(s *api.Signer, path, passphrase string) error {
	if passphrase == "" {
		return errors.New("keystore: refusing an empty passphrase: the file would hold the key in effect unencrypted")
	}
	id, err := uuid.NewRandom()
	if err != nil {
		return fmt.Errorf("keystore: %w", err)
	}
	k := &keystore.Key{Id: id, Address: common.HexToAddress(s.Address()), PrivateKey: signerkey.Of(s)}
	data, err := keystore.EncryptKey(k, passphrase, Scrypt.N, Scrypt.P)
	if err != nil {
		return fmt.Errorf("keystore: encrypting the key failed: %v", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return fmt.Errorf("keystore: %s exists already; choose a new file (an existing key file is never overwritten)", path)
		}
		return fmt.Errorf("keystore: %w", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("keystore: writing %s failed: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return fmt.Errorf("keystore: writing %s failed: %w", path, err)
	}
	return nil
}
