package pagedlist

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExportGoesToOneKnownPlace (#24 case 7): with no directory set, exports go to
// $TRADEDESK_EXPORT_DIR (else the data directory's tradedesk/exports), named by a full path,
// not to whatever directory the console started in.
func TestExportGoesToOneKnownPlace(t *testing.T) {
	old := ExportDir
	ExportDir = ""
	t.Cleanup(func() { ExportDir = old })
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
