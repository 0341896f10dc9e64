package profile

import (
	"strings"
	"testing"
	"time"
)

// TestDeadManSpan: [dead_man] after reads as a duration of at least 1s; empty is not armed;
// flatten without after, or a bad after, says what to give.
func TestDeadManSpan(t *testing.T) {
	if d, err := (DeadMan{After: "30s"}).Span(); err != nil || d != 30*time.Second {
		t.Fatalf("30s: %v %v", d, err)
	}
	if d, err := (DeadMan{}).Span(); err != nil || d != 0 {
		t.Fatalf("empty: %v %v", d, err)
	}
	for _, bad := range []DeadMan{{After: "soon"}, {After: "500ms"}, {Flatten: true}} {
		if _, err := bad.Span(); err == nil || !strings.Contains(err.Error(), "[dead_man]") {
			t.Fatalf("%+v: %v", bad, err)
		}
	}
}
