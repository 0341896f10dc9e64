package ui

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"github.com/tradedesk/tradedesk/ui/components/fills"
	"github.com/tradedesk/tradedesk/ui/components/pagedlist"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/ui/common"
)

// TestExportKeyWritesEveryPage presses e and E in the fills pane: every page (not just the
// loaded one) is written, with progress shown while it runs.
func TestExportKeyWritesEveryPage(t *testing.T) {
	dir := t.TempDir()
	old := pagedlist.ExportDir
	pagedlist.ExportDir = dir
	t.Cleanup(func() { pagedlist.ExportDir = old })

	c := paneCommon(t)
	ex := &fakeEx{fills: makeFills(250, 1000)}
	p := fills.New(c, ex, false)
	p.SetSize(160, 10)
	deliver(t, c, p, p.Update(common.StartPanesMsg{}))
	if len(p.Fills()) != 100 {
		t.Fatalf("loaded %d", len(p.Fills()))
	}

	cmd := p.Update(keyMsg("e"))
	if !p.Exp.Running() || !strings.Contains(p.View(), "exporting fills to tradedesk-fills-20260302-090000.csv") {
		t.Fatalf("no progress line:\n%s", p.View())
	}
	notices := deliver(t, c, p, cmd)
	path := filepath.Join(dir, "tradedesk-fills-20260302-090000.csv")
	if len(notices) != 1 || notices[0] != "exported 250 fills to "+path {
		t.Fatalf("notices %q", notices)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) != 251 {
		t.Fatalf("%d rows, %v", len(recs), err)
	}
	for i, r := range recs[1:] {
		if r[14] != fmt.Sprint(ex.fills[i].TradeID) || r[8] != ex.fills[i].Fee.String() {
			t.Fatalf("row %d: %v", i, r)
		}
	}

	deliver(t, c, p, p.Update(keyMsg("E")))
	b, err := os.ReadFile(filepath.Join(dir, "tradedesk-fills-20260302-090000.json"))
	if err != nil {
		t.Fatal(err)
	}
	var got []api.Fill
	if err := json.Unmarshal(b, &got); err != nil || len(got) != 250 || got[249].TradeID != 751 {
		t.Fatalf("json: %d records, %v", len(got), err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".tradedesk-export-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if !strings.Contains(p.View(), "exported 250 fills") {
		t.Errorf("the status line does not show the result:\n%s", p.View())
	}
}
