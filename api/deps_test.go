package api_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTheClientLinksNoKeystore: package api, which every package links, depends on no part of
// go-ethereum's keystore and what it brings (transactions, KZG, the pairing curves); the key file
// is api/keyfile's, imported where a key file is read or written. Linking the keystore into every
// test binary made the suite's links take half its time.
func TestTheClientLinksNoKeystore(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "github.com/tradedesk/tradedesk/api",
		"github.com/tradedesk/tradedesk/api/text").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 20 {
		t.Fatalf("go list listed only %d packages: %s", len(deps), out)
	}
	for _, d := range deps {
		for _, b := range []string{"github.com/ethereum/go-ethereum/accounts", "github.com/ethereum/go-ethereum/core",
			"github.com/ethereum/go-ethereum/crypto/kzg4844", "github.com/crate-crypto/", "github.com/consensys/", "modernc.org/sqlite"} {
			if strings.HasPrefix(d, b) {
				t.Errorf("package api depends on %s", d)
			}
		}
	}
}
