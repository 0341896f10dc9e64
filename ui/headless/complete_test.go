package headless

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestCompletionOffersOnlyPlainNames: an instrument name a server (or an edited cache file) holds
// with a control character, a space, a quote or a shell character in it is never offered to the
// shell; plain names are, in their order. Guards dropping the plainName filter.
func TestCompletionOffersOnlyPlainNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	names := []string{"BTC-PERP", "ETH/USDC", "x.1"}
	if err := writeInstrumentCache(dir, names); err != nil {
		t.Fatal(err)
	}
	if got := readInstrumentCache(dir); !slices.Equal(got, names) {
		t.Fatalf("cache read back %q, want %q", got, names)
	}
	hostile := "BTC-PERP\nA:B\n\x1b[31mRED\nA B\n$(rm -rf x)\n`x`\n'q'\nSOL-PERP\n-rf\n\n"
	if err := os.WriteFile(filepath.Join(dir, instrumentsCache), []byte(hostile), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := readInstrumentCache(dir); !slices.Equal(got, []string{"BTC-PERP", "SOL-PERP"}) {
		t.Fatalf("hostile cache offered %q", got)
	}
	if readInstrumentCache(t.TempDir()) != nil || readInstrumentCache("") != nil {
		t.Fatal("no cache offers nothing")
	}
}
