package ui

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
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
	old := exportDir
	exportDir = dir
	t.Cleanup(func() { exportDir = old })

	c := paneCommon(t)
	ex := &fakeEx{fills: makeFills(250, 1000)}
	p := newFillsPane(c, ex, false)
	p.SetSize(160, 10)
	deliver(t, c, p, p.Update(common.StartPanesMsg{}))
	if len(p.fills) != 100 {
		t.Fatalf("loaded %d", len(p.fills))
	}

	cmd := p.Update(keyMsg("e"))
	if p.exp.job == nil || !strings.Contains(p.View(), "exporting fills to tradedesk-fills-20260302-090000.csv") {
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

// TestExportGoesToOneKnownPlace (#24 case 7): with no directory set, exports go to
// $TRADEDESK_EXPORT_DIR (else the data directory's tradedesk/exports), named by a full path,
// not to whatever directory the console started in.
func TestExportGoesToOneKnownPlace(t *testing.T) {
	old := exportDir
	exportDir = ""
	t.Cleanup(func() { exportDir = old })
	dir := filepath.Join(t.TempDir(), "exports")
	t.Setenv("TRADEDESK_EXPORT_DIR", dir)
	p := exportPath("fills.csv")
	if p != filepath.Join(dir, "fills.csv") || !filepath.IsAbs(p) {
		t.Errorf("export path %q, want %q", p, filepath.Join(dir, "fills.csv"))
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Errorf("the export directory was not made: %v", err)
	}
	t.Setenv("TRADEDESK_EXPORT_DIR", "")
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	if p := exportPath("x.csv"); p != filepath.Join(data, "tradedesk", "exports", "x.csv") {
		t.Errorf("export path %q under XDG_DATA_HOME=%s", p, data)
	}
}
