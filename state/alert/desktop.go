package alert

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"runtime"
	"strings"

	"github.com/tradedesk/tradedesk/api/text"
)

// Desktop is the desktop notification: the terminal's own (OSC 9 or OSC 777) where it has one,
// else notify-send (Linux) or osascript (macOS) when present.
type Desktop struct {
	Escape string    // "9", "777" or "" (no escape: a program)
	Term   io.Writer // where the escape goes (the terminal)
	Prog   []string  // the program and its leading arguments; the text is added last
}

// NewDesktop picks the way for the terminal getenv describes; nil when there is none. A nil term
// (no terminal to write an escape to, such as a headless command's redirected output) leaves the
// program.
func NewDesktop(getenv func(string) string, term io.Writer) *Desktop {
	prog, term0 := getenv("TERM_PROGRAM"), getenv("TERM")
	inMux := getenv("TMUX") != "" || strings.HasPrefix(term0, "screen")
	switch {
	case inMux || term == nil: // a multiplexer swallows the escape: use a program
	case prog == "iTerm.app" || prog == "WezTerm" || prog == "ghostty" || getenv("WT_SESSION") != "":
		return &Desktop{Escape: "9", Term: term}
	case strings.Contains(term0, "foot") || strings.Contains(term0, "rxvt") || getenv("VTE_VERSION") != "":
		return &Desktop{Escape: "777", Term: term}
	}
	switch runtime.GOOS {
	case "darwin":
		if p, err := exec.LookPath("osascript"); err == nil {
			return &Desktop{Prog: []string{p, "-e", "on run argv\ndisplay notification (item 1 of argv) with title \"tradedesk\"\nend run"}}
		}
	default:
		if p, err := exec.LookPath("notify-send"); err == nil {
			return &Desktop{Prog: []string{p, "--app-name=tradedesk", "tradedesk"}}
		}
	}
	return nil
}

// Notify shows msg, made safe first: no control character, no ';' to end an escape's field early.
func (d *Desktop) Notify(ctx context.Context, msg string) error {
	msg = text.HideKeys(text.Clean(msg))
	switch d.Escape {
	case "9":
		_, err := io.WriteString(d.Term, "\x1b]9;"+msg+"\x07")
		return err
	case "777":
		_, err := io.WriteString(d.Term, "\x1b]777;notify;tradedesk;"+strings.ReplaceAll(msg, ";", ",")+"\x07")
		return err
	}
	if len(d.Prog) == 0 {
		return errors.New("no way to notify")
	}
	// The text is one argument of a program run without a shell.
	return exec.CommandContext(ctx, d.Prog[0], append(d.Prog[1:], msg)...).Run()
}
