package headless

import "testing"

// TestBatchLineBadFlagValue: a batch line's flag value that does not parse gets the message the
// command line's does (the line, the flag, the value, what to give), not pflag's wording.
func TestBatchLineBadFlagValue(t *testing.T) {
	t.Parallel()
	_, err := (&runner{}).lineIntent("--instrument BTC-PERP --post-only=maybe", 3)
	want := `line 3: --post-only "maybe": not true or false; give the flag alone for true, or --post-only=false`
	if err == nil || err.Error() != want || !IsUsage(err) {
		t.Fatalf("error %v: want the usage error %q", err, want)
	}
}
