package cmdline

import (
	"strings"
	"testing"
	"time"
)

// TestGuardLine: :guard arm, disarm and detach are read with their span and flatten; a wrong
// one says what to give; other lines are not guard lines.
func TestGuardLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want GuardMsg
		err  string
	}{
		{line: "guard arm 10s", want: GuardMsg{Verb: "arm", After: 10 * time.Second}},
		{line: "GUARD arm 2m flatten", want: GuardMsg{Verb: "arm", After: 2 * time.Minute, Flatten: true}},
		{line: "guard disarm", want: GuardMsg{Verb: "disarm"}},
		{line: "guard detach", want: GuardMsg{Verb: "detach"}},
		{line: "guard", err: "arm 30s [flatten], disarm or detach"},
		{line: "guard arm", err: "arm 30s"},
		{line: "guard arm 500ms", err: "at least 1s"},
		{line: "guard arm soon", err: "at least 1s"},
		{line: "guard arm 10s now", err: "disarm or detach"},
		{line: "guard detach now", err: "disarm or detach"},
	} {
		msg, ok, err := guardLine(tc.line)
		if !ok {
			t.Fatalf("%q: not a guard line", tc.line)
		}
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("%q: error %v, want %q", tc.line, err, tc.err)
			}
			continue
		}
		if err != nil || msg != tc.want {
			t.Fatalf("%q: %+v %v, want %+v", tc.line, msg, err, tc.want)
		}
	}
	if _, ok, _ := guardLine("guards"); ok {
		t.Fatal("guards is not a guard line")
	}
}
