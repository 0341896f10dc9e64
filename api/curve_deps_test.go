package api_test

import (
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// keystoreBound are the packages whose test binaries may link go-ethereum's crypto package (and
// through it, with cgo, libsecp256k1, linked by gcc): those that read or write a key file, since
// go-ethereum's keystore needs that package. The list only shrinks: a package on it whose test
// no longer links go-ethereum's crypto fails TestOnlyKeystoreLinksCgoCurve until it is taken off.
var keystoreBound = map[string]bool{
	"": true, "api/keyfile": true, "ui": true, "ui/cli": true, "ui/headless": true, "ui/launch": true,
}

// cgoCurve are go-ethereum's crypto package and its cgo curve: what a binary that signs with
// api/internal/secp no longer links. Linking them made each test binary's link go through gcc,
// about 0.33 s more for each plain test binary of the suite.
var cgoCurve = []string{"github.com/ethereum/go-ethereum/crypto", "github.com/ethereum/go-ethereum/crypto/secp256k1"}

// TestOnlyKeystoreLinksCgoCurve: in a plain build no test binary but those of keystoreBound links
// go-ethereum's crypto package or libsecp256k1 (signing and recovery use api/internal/secp,
// go-ethereum's own pure-Go curve); a package that does is named with the import chain that
// brings it in.
func TestOnlyKeystoreLinksCgoCurve(t *testing.T) {
	const mod = "github.com/tradedesk/tradedesk"
	// -race=false whatever GOFLAGS says: a race build signs in libsecp256k1 (secp.UseLinked).
	out, err := exec.Command("go", "list", "-race=false", "-test", "-deps", "-f", "{{.ImportPath}}|{{join .Imports \",\"}}", mod+"/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	var binaries []string
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, "|")
		imports[pkg] = strings.Split(deps, ",") // a test variant's path has a space: "p [p.test]"
		if strings.HasSuffix(pkg, ".test") && strings.HasPrefix(pkg, mod) {
			binaries = append(binaries, pkg)
		}
	}
	if len(binaries) < 40 {
		t.Fatalf("go list listed only %d test binaries: %s", len(binaries), out)
	}
	sort.Strings(binaries)
	for _, bin := range binaries {
		name := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSuffix(bin, ".test"), mod), "/")
		chain := importChain(imports, bin, cgoCurve)
		switch {
		case chain != nil && !keystoreBound[name]:
			t.Errorf("the test of %q links %s: %s; sign, recover and make keys with api/internal/secp (or api's Signer)",
				name, chain[len(chain)-1], shortChain(chain, mod))
		case chain == nil && keystoreBound[name]:
			t.Errorf("the test of %q no longer links go-ethereum's crypto: take it off keystoreBound", name)
		}
	}
}

// importChain is the shortest import chain from pkg to any of targets (breadth first), or nil.
func importChain(imports map[string][]string, pkg string, targets []string) []string {
	from := map[string]string{pkg: ""}
	queue := []string{pkg}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, tgt := range targets {
			if p == tgt {
				var chain []string
				for ; p != ""; p = from[p] {
					chain = append([]string{p}, chain...)
				}
				return chain
			}
		}
		for _, d := range imports[p] {
			if _, seen := from[d]; !seen {
				from[d] = p
				queue = append(queue, d)
			}
		}
	}
	return nil
}

// shortChain writes an import chain with the module's prefix and test variants' suffixes cut.
func shortChain(chain []string, mod string) string {
	short := make([]string, len(chain))
	for i, p := range chain {
		p, _, _ = strings.Cut(p, " [")
		short[i] = strings.TrimPrefix(strings.TrimPrefix(p, mod), "/")
	}
	return strings.Join(short, " -> ")
}
