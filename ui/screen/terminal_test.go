package screen

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestATerminalOnAWriterWritesItsModesThere: a program run with a writer for its output (a
// test's buffer) writes the modes and frames there, not to the process's standard output, and
// sends no size (a writer has none).
func TestATerminalOnAWriterWritesItsModesThere(t *testing.T) {
	in, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = in.Close() }()
	var out bytes.Buffer
	tty, err := Open(in, &out, 30)
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	tty.Sizes(context.Background(), func(tea.Msg) { sent++ }) // returns at once: no terminal
	if err := tty.Close(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.HasPrefix(got, enterModes) || !strings.HasSuffix(got, leaveModes) || sent != 0 {
		t.Errorf("the writer holds %q with %d sizes sent; want the modes set, then reset, and no size", got, sent)
	}
}
