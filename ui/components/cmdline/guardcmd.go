package cmdline

import (
	"errors"
	"strings"
	"time"
)

// GuardMsg asks the root to act on the attached guard (`:guard arm 30s [flatten]`, `:guard
// disarm`, `:guard detach`): Verb is arm, disarm or detach; After and Flatten are arm's.
type GuardMsg struct {
	Verb    string
	After   time.Duration
	Flatten bool
}

// guardLine reads a line that is a guard command; ok false when it is none, err what is wrong
// with one.
func guardLine(line string) (msg GuardMsg, ok bool, err error) {
	words := strings.Fields(strings.ToLower(line))
	if len(words) == 0 || words[0] != "guard" {
		return msg, false, nil
	}
	bad := errors.New("give arm 30s [flatten], disarm or detach")
	if len(words) < 2 {
		return msg, true, bad
	}
	msg.Verb = words[1]
	switch {
	case msg.Verb == "disarm" || msg.Verb == "detach":
		if len(words) != 2 {
			return msg, true, bad
		}
	case msg.Verb == "arm" && len(words) >= 3 && len(words) <= 4:
		d, perr := time.ParseDuration(words[2])
		if perr != nil || d < time.Second {
			return msg, true, errors.New("arm " + words[2] + ": give a span of at least 1s, such as 30s")
		}
		msg.After = d
		if len(words) == 4 {
			if words[3] != "flatten" {
				return msg, true, bad
			}
			msg.Flatten = true
		}
	default:
		return msg, true, bad
	}
	return msg, true, nil
}

// checkGuard is check's reading of a guard line.
func (m *Model) checkGuard(line string) bool {
	msg, ok, err := guardLine(line)
	switch {
	case !ok:
		return false
	case err != nil:
		m.live = "… " + err.Error()
	case msg.Verb == "arm":
		m.live = "✓ " + m.enterKey() + " arms the guard's dead-man's switch for " + msg.After.String()
	default:
		m.live = "✓ " + m.enterKey() + " " + msg.Verb + "s the guard"
	}
	return true
}

func init() {
	verbUsage["guard"] = "guard arm 30s [flatten] · guard disarm · guard detach: the attached guard's dead-man's switch, or leave the guard running alone"
}
