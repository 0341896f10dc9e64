package state

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/shopspring/decimal"
)

// TestParseAlgoCommands reads each algorithm command of the grammar, and refuses bad words
// naming the word and what to give.
func TestParseAlgoCommands(t *testing.T) {
	dd := decimal.RequireFromString
	good := map[string]AlgoCommand{
		"chase buy 0.5 btc to 0.1% offset 2t for 5m keep": {Kind: "chase", Side: "buy", Size: dd("0.5"), Instrument: "btc",
			MaxDistance: "0.1%", Offset: 2, For: 5 * time.Minute, Keep: true},
		"chase s 1 ETH-PERP": {Kind: "chase", Side: "sell", Size: dd("1"), Instrument: "eth-perp"},
		"twap sell 2 eth 30m slices 12 band 3380-3450 rand": {Kind: "twap", Side: "sell", Size: dd("2"), Instrument: "eth",
			Duration: 30 * time.Minute, Slices: 12, BandLo: dd("3380"), BandHi: dd("3450"), Random: true},
		"scale buy 1 btc 95000-96000 x10 inc": {Kind: "scale", Side: "buy", Size: dd("1"), Instrument: "btc", From: dd("95000"),
			To: dd("96000"), Count: 10, Distribution: "inc"},
		"scale sell 1 btc 96000-95000 x3": {Kind: "scale", Side: "sell", Size: dd("1"), Instrument: "btc", From: dd("96000"), To: dd("95000"), Count: 3, Distribution: "flat"},
		"trail btc 1.5%":                  {Kind: "trail", Instrument: "btc", Distance: "1.5%"},
		"trail btc 40t":                   {Kind: "trail", Instrument: "btc", Distance: "40t"},
		"algos resume Chase-Ab12":         {Kind: "algos", Choice: "resume", ID: "Chase-Ab12"},
		"algos flatten c1":                {Kind: "algos", Choice: "flatten", ID: "c1"},
		"twap sell 2 eth 30m every 2m":    {Kind: "twap", Side: "sell", Size: dd("2"), Instrument: "eth", Duration: 30 * time.Minute, Every: 2 * time.Minute},
		"algos pause c1":                  {Kind: "algos", Choice: "pause", ID: "c1"},
	}
	for line, want := range good {
		got, ok, err := ParseAlgoCommand(line)
		if !ok || err != nil {
			t.Fatalf("%q: ok %v err %v", line, ok, err)
		}
		if got.Kind != want.Kind || got.Side != want.Side || !got.Size.Equal(want.Size) || got.Instrument != want.Instrument ||
			got.MaxDistance != want.MaxDistance || got.Offset != want.Offset || got.For != want.For || got.Keep != want.Keep ||
			got.Duration != want.Duration || got.Slices != want.Slices || !got.BandLo.Equal(want.BandLo) || !got.BandHi.Equal(want.BandHi) ||
			got.Random != want.Random || !got.From.Equal(want.From) || !got.To.Equal(want.To) || got.Count != want.Count ||
			got.Distribution != want.Distribution || got.Distance != want.Distance || got.Choice != want.Choice || got.ID != want.ID {
			t.Errorf("%q:\n got %+v\nwant %+v", line, got, want)
		}
	}
	bad := map[string]string{
		"chase up 0.5 btc":                   "word 2",
		"chase buy -1 btc":                   "word 3",
		"chase buy 1 btc to far":             "word 6",
		"chase buy 1 btc offset x":           "word 6",
		"chase buy 1 btc for never":          "word 6",
		"chase buy 1 btc quickly":            "word 5",
		"twap sell 2 eth":                    "duration",
		"twap sell 2 eth 30m band 3450":      "word 7",
		"scale buy 1 btc 95000-96000 10":     "x2 to x100",
		"scale buy 1 btc 95000-96000 x10 up": "flat, inc, dec or geo",
		"trail btc":                          "distance",
		"trail btc far":                      "word 3",
		"algos stop X":                       "resume, cancel, flatten or pause",
	}
	for line, want := range bad {
		_, ok, err := ParseAlgoCommand(line)
		var ce *CommandError
		if !ok || !errors.As(err, &ce) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: ok %v err %v, want an error saying %q", line, ok, err, want)
		}
	}
	if _, ok, _ := ParseAlgoCommand("buy 1 btc 97000"); ok {
		t.Error("an order line read as an algorithm command")
	}
}
