package journal

import (
	"context"
	"testing"
	"time"
)

func TestAlertDefinitionsLiveInTheJournal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	j, err := Open(Path(dir, "testnet", "0xabc"))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // seeded twice (two starts): kept once
		if _, err := j.PutAlert(ctx, AlertDef{ID: "al-1", Rule: "BTC mark > 100000", Origin: "config"}); err != nil {
			t.Fatal(err)
		}
	}
	if added, _ := j.PutAlert(ctx, AlertDef{ID: "al-2", Rule: "ETH liq < 5%", Origin: "user"}); !added {
		t.Fatal("a new alert was not added")
	}
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	if err := j.AlertFired(ctx, "al-2", at); err != nil {
		t.Fatal(err)
	}
	_ = j.Close()
	j, err = Open(Path(dir, "testnet", "0xabc"))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	ds, err := j.Alerts(ctx)
	if err != nil || len(ds) != 2 || ds[1].Rule != "ETH liq < 5%" || !ds[1].LastFired.Equal(at) || !ds[0].LastFired.IsZero() {
		t.Fatalf("%+v %v", ds, err)
	}
	if gone, _ := j.RemoveAlert(ctx, "al-1"); !gone {
		t.Fatal("not removed")
	}
	if gone, _ := j.RemoveAlert(ctx, "al-1"); gone {
		t.Fatal("removed twice")
	}
}
