// Command mutate is the team's mutation run over the money-critical code (issue #25): it applies
// each hand-written mutation of mutants.go to a private copy of the module, runs the tests of the
// mutated package, and reports per package how many non-equivalent mutants the tests killed, and
// which survived. It is not part of .ci/run: it takes minutes.
//
//	go run ./.ci/mutate                 every mutant, one at a time
//	go run ./.ci/mutate -pkg api/sim    one package
//	go run ./.ci/mutate -only liq       mutants whose id contains "liq"
//	go run ./.ci/mutate -j 2 -v         two copies at once, test output of survivors
//	go run ./.ci/mutate -run TestProp   what these tests kill on their own
//
// A mutant whose original snippet no longer occurs exactly once in its file is reported as stale:
// the code moved on and the list needs updating. A mutant that does not compile is reported as
// invalid. Neither counts in the kill rate; equivalent mutants (listed with their reason) do not
// either.
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// mutant is one mutation: in file (relative to the module root), the snippet from, which must
// occur exactly once, becomes to. Tests run in the file's package unless pkgs names others.
// A non-empty equiv says why the mutant cannot be told apart from the original (it is then still
// run, and reported if it is in fact killed).
type mutant struct {
	id    string
	file  string
	from  string
	to    string
	equiv string
	pkgs  []string
}

// outcome of one mutant.
type outcome int

const (
	killed outcome = iota
	survived
	stale
	invalid
	timedOut
)

func (o outcome) String() string {
	return [...]string{"killed", "SURVIVED", "stale", "invalid", "timeout"}[o]
}

type result struct {
	m           mutant
	out         outcome
	took        time.Duration
	log         string
	interrupted bool // the run was stopped while this mutant's tests ran
}

func main() {
	pkg := flag.String("pkg", "", "run only mutants of files under this directory (e.g. state, api/sim)")
	only := flag.String("only", "", "run only mutants whose id contains one of these comma-separated texts")
	jobs := flag.Int("j", 1, "mutants tested at once (each in its own copy of the module)")
	timeout := flag.Duration("timeout", 3*time.Minute, "time allowed for one mutant's tests")
	verbose := flag.Bool("v", false, "print the test output of survivors")
	runRe := flag.String("run", "", "pass -run to go test: which mutants do these tests kill on their own")
	list := flag.Bool("list", false, "list the mutants (and which are stale) and exit")
	flag.Parse()

	root, err := moduleRoot()
	if err != nil {
		fatal(err)
	}
	var todo []mutant
	for _, m := range mutants {
		if (*pkg == "" || strings.HasPrefix(m.file, strings.TrimSuffix(*pkg, "/")+"/")) && matches(m.id, *only) {
			todo = append(todo, m)
		}
	}
	if *list {
		for _, m := range todo {
			note := ""
			if b, err := os.ReadFile(filepath.Join(root, m.file)); err != nil || bytes.Count(b, []byte(m.from)) != 1 {
				note = "  (stale: the original snippet is not in the file exactly once)"
			}
			fmt.Printf("%-36s %s%s\n", m.id, m.file, note)
		}
		return
	}
	if len(todo) == 0 {
		fatal(errors.New("no mutant matches"))
	}
	checkIDs()
	// An interrupt stops the run after the mutants under test, puts their files back, removes the
	// copies and reports what was done.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	results := run(ctx, root, todo, max(*jobs, 1), *timeout, *runRe)
	report(results, *verbose, time.Since(start))
}

// matches reports whether id contains one of the comma-separated texts of only (any id when only
// is empty).
func matches(id, only string) bool {
	for _, s := range strings.Split(only, ",") {
		if strings.Contains(id, s) {
			return true
		}
	}
	return false
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "mutate:", err)
	os.Exit(2)
}

// checkIDs refuses a list with two mutants of the same id (the report would be ambiguous).
func checkIDs() {
	seen := map[string]bool{}
	for _, m := range mutants {
		if seen[m.id] {
			fatal(fmt.Errorf("mutant id %q is used twice", m.id))
		}
		seen[m.id] = true
	}
}

func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("run inside the module")
	}
	return filepath.Dir(mod), nil
}

// run tests the mutants on jobs workers, each with its own copy of the module (kept for the
// whole run, so the build cache serves every package the mutant does not touch).
func run(ctx context.Context, root string, todo []mutant, jobs int, timeout time.Duration, runRe string) []result {
	ch := make(chan int)
	results := make([]result, len(todo))
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for w := 0; w < jobs; w++ {
		dir, err := os.MkdirTemp("", "tradedesk-mutate-")
		if err != nil {
			fatal(err)
		}
		defer os.RemoveAll(dir)
		if err := copyModule(root, dir); err != nil {
			fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range ch {
				r := try(ctx, dir, todo[i], timeout, runRe)
				mu.Lock()
				results[i] = r
				done++
				label := r.out.String()
				if r.interrupted {
					label = "interrupted"
				} else if r.m.equiv != "" {
					label = "equiv:" + strings.ToLower(label)
				}
				fmt.Printf("[%d/%d] %-15s %-36s %5.1fs\n", done, len(todo), label, r.m.id, r.took.Seconds())
				mu.Unlock()
			}
		}()
	}
send:
	for i := range todo {
		select {
		case ch <- i:
		case <-ctx.Done():
			break send
		}
	}
	close(ch)
	wg.Wait()
	var finished []result
	for _, r := range results {
		if r.m.id != "" && !r.interrupted {
			finished = append(finished, r)
		}
	}
	return finished
}

// copyModule copies the module's files (not .git) into dir.
func copyModule(root, dir string) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dir, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, rel), b, 0o644)
	})
}

// try applies one mutant in dir, runs its package's tests and puts the file back.
func try(parent context.Context, dir string, m mutant, timeout time.Duration, runRe string) result {
	start := time.Now()
	r := result{m: m}
	path := filepath.Join(dir, m.file)
	orig, err := os.ReadFile(path)
	if err != nil || bytes.Count(orig, []byte(m.from)) != 1 {
		r.out = stale
		return r
	}
	mutated := bytes.Replace(orig, []byte(m.from), []byte(m.to), 1)
	if err := os.WriteFile(path, mutated, 0o644); err != nil {
		fatal(err)
	}
	defer func() {
		if err := os.WriteFile(path, orig, 0o644); err != nil {
			fatal(err)
		}
	}()
	pkgs := m.pkgs
	if len(pkgs) == 0 {
		pkgs = []string{"./" + filepath.ToSlash(filepath.Dir(m.file))}
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	args := []string{"test", "-count=1", "-failfast", "-vet=off"}
	if runRe != "" {
		args = append(args, "-run", runRe)
	}
	args = append(args, pkgs...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	r.took = time.Since(start)
	r.log = string(out)
	switch {
	case parent.Err() != nil:
		r.interrupted = true
	case ctx.Err() != nil:
		r.out = timedOut // a mutant that hangs the tests is caught, but not by an assertion
	case err == nil:
		r.out = survived
	case strings.Contains(r.log, "[build failed]") || strings.Contains(r.log, "[setup failed]"):
		r.out = invalid
	default:
		r.out = killed
	}
	return r
}

// report prints the kill rate per package and lists the survivors, stale and invalid mutants.
func report(results []result, verbose bool, took time.Duration) {
	type tally struct{ killed, total, equiv, skipped int }
	per := map[string]*tally{}
	var names []string
	for _, r := range results {
		p := filepath.ToSlash(filepath.Dir(r.m.file))
		if per[p] == nil {
			per[p] = &tally{}
			names = append(names, p)
		}
		t := per[p]
		switch {
		case r.out == stale || r.out == invalid:
			t.skipped++
		case r.m.equiv != "":
			t.equiv++
		default:
			t.total++
			if r.out == killed || r.out == timedOut {
				t.killed++
			}
		}
	}
	sort.Strings(names)
	fmt.Printf("\n%-12s %8s %8s %6s %11s\n", "package", "killed", "mutants", "rate", "equivalent")
	var k, n int
	for _, p := range names {
		t := per[p]
		k, n = k+t.killed, n+t.total
		fmt.Printf("%-12s %8d %8d %5.1f%% %11d", p, t.killed, t.total, pct(t.killed, t.total), t.equiv)
		if t.skipped > 0 {
			fmt.Printf("   (%d stale or invalid)", t.skipped)
		}
		fmt.Println()
	}
	fmt.Printf("%-12s %8d %8d %5.1f%%   in %s\n", "all", k, n, pct(k, n), took.Round(time.Second))
	for _, r := range results {
		switch {
		case r.m.equiv != "" && r.out == killed:
			fmt.Printf("\nlisted as equivalent but killed: %s (%s)\n", r.m.id, r.m.file)
		case r.m.equiv != "":
		case r.out == survived:
			fmt.Printf("\nsurvived: %s (%s)\n  - %s\n  + %s\n", r.m.id, r.m.file, r.m.from, r.m.to)
			if verbose {
				fmt.Println(r.log)
			}
		case r.out == stale || r.out == invalid:
			fmt.Printf("\n%s: %s (%s): update the list\n", r.out, r.m.id, r.m.file)
			if r.out == invalid && verbose {
				fmt.Println(r.log)
			}
		}
	}
	fmt.Println("\nequivalent (not counted):")
	for _, r := range results {
		if r.m.equiv != "" {
			fmt.Printf("  %-28s %s\n", r.m.id, r.m.equiv)
		}
	}
}

func pct(k, n int) float64 {
	if n == 0 {
		return 100
	}
	return 100 * float64(k) / float64(n)
}
