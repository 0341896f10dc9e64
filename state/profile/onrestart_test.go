package profile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOnRestartTable: [on_restart] sets a choice per kind (a profile's table over the top
// level's, kind by kind); a value that is no choice is refused at load saying what to give.
func TestOnRestartTable(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	write := func(s string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("[on_restart]\nchase = \"resume\"\ntrail = \"Resume\"\n[profile.b.on_restart]\nchase = \"flatten\"\n")
	f, err := Load(path, nil)
	if err == nil {
		err = f.Check()
	}
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.OnRestart.Choices()
	if err != nil || len(got) != 2 || got["chase"] != "resume" || got["trail"] != "resume" {
		t.Fatalf("%v %v", got, err)
	}
	b, err := f.Select("b")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := b.OnRestart.Choices(); got["chase"] != "flatten" || got["trail"] != "resume" {
		t.Fatalf("profile b: %v", got)
	}
	write("[on_restart]\ntwap = \"later\"\n")
	if f, err = Load(path, nil); err == nil {
		err = f.Check()
	}
	if err == nil || !strings.Contains(err.Error(), "[on_restart] twap") || !strings.Contains(err.Error(), "resume, cancel, flatten") {
		t.Fatalf("a bad choice: %v", err)
	}
}
