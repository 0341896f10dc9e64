package cli

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// TestVersionMatchesTheBuild builds the binary with go build (with VCS stamping when the tree is
// a git checkout), reads its build information with go version -m, and checks that --version
// and tradedesk version print that module version, commit, commit time and dirty flag.
func TestVersionMatchesTheBuild(t *testing.T) {
	t.Parallel() // waits on the wall clock (a request's expiry, a build) while the others run
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "tradedesk")
	// -s -w: no symbol table or DWARF, half the link's CPU; the build information the test reads
	// (go version -m, --version) is kept.
	build := exec.Command("go", "build", "-buildvcs=true", "-ldflags=-s -w", "-o", bin, "github.com/tradedesk/tradedesk")
	if out, err := build.CombinedOutput(); err != nil {
		t.Logf("no VCS stamping (%v: %s); building without it", err, strings.TrimSpace(string(out)))
		if out, err := exec.Command("go", "build", "-ldflags=-s -w", "-o", bin, "github.com/tradedesk/tradedesk").CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
	}
	out, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	want := buildOf(parseVersionM(t, string(out)))
	t.Logf("go version -m says %+v", want)

	got, err := exec.Command(bin, "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if line := "tradedesk " + want.Short() + "\n"; string(got) != line {
		t.Errorf("--version printed %q, want %q", got, line)
	}
	for _, part := range []string{want.Version, want.Revision, want.Time} {
		if !strings.Contains(string(got), part) {
			t.Errorf("--version %q lacks %q", got, part)
		}
	}
	if want.Dirty != strings.Contains(string(got), "dirty") {
		t.Errorf("--version %q, dirty %v", got, want.Dirty)
	}
	got, err = exec.Command(bin, "version", "--json").Output()
	if err != nil {
		t.Fatal(err)
	}
	var b Build
	if err := json.Unmarshal(got, &b); err != nil || b != want {
		t.Errorf("version --json: %+v (%v), want %+v", b, err, want)
	}
	got, _ = exec.Command(bin, "version").Output()
	if !strings.HasPrefix(string(got), "tradedesk "+want.Version+"\n") || !strings.Contains(string(got), "module    github.com/tradedesk/tradedesk\n") {
		t.Errorf("version: %q", got)
	}
}

// parseVersionM reads go version -m's report: "FILE: goX", then tab-indented lines such as
// "mod PATH VERSION" and "build KEY=VALUE".
func parseVersionM(t *testing.T, out string) *debug.BuildInfo {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	_, goVersion, ok := strings.Cut(lines[0], ": ")
	if !ok {
		t.Fatalf("go version -m: %q", out)
	}
	bi := &debug.BuildInfo{GoVersion: goVersion}
	for _, l := range lines[1:] {
		f := strings.Split(strings.TrimPrefix(l, "\t"), "\t")
		switch {
		case f[0] == "mod" && len(f) >= 3:
			bi.Main.Path, bi.Main.Version = f[1], f[2]
		case f[0] == "build" && len(f) >= 2:
			k, v, _ := strings.Cut(f[1], "=")
			if uq, err := strconv.Unquote(v); err == nil {
				v = uq
			}
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: k, Value: v})
		}
	}
	if bi.Main.Path == "" {
		t.Fatalf("go version -m names no main module: %q", out)
	}
	return bi
}
