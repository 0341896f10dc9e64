package api

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// tickerFrame is a ticker notification as the simulator sends it (the newer generation's shape,
// prices as JSON numbers).
func tickerFrame(i int) []byte {
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","method":"subscription","params":{"channel":"ticker:all","data":`+
		`{"instrument_name":"SYN%d-PERP","instrument_id":%d,"symbol":"SYN%d-PERP","type":"perp","mark_price":8712.9,`+
		`"mid_price":8713.3,"index_price":8711.82,"best_bid_price":8710.3,"best_ask_price":8716.3,"best_bid_size":0.1342,`+
		`"best_ask_size":0.0871,"funding_rate":0.0000125,"volume_24h":39520000.5,"change_24h":-0.0276,"open_interest":12.5,`+
		`"max_trading_price":9584.1,"min_trading_price":7841.6,"last_price":8710.3,"last_updated":1769688000123}}}`, i, 1000+i, i))
}

// midsFrame is a mids:all notification of n instruments.
func midsFrame(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","method":"subscription","params":{"channel":"mids:all","data":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"symbol":"SYN%d-PERP","mid_price":%d.%d}`, i, 8000+i, i%97)
	}
	b.WriteString(`]}}`)
	return []byte(b.String())
}

func benchDecode(b *testing.B, frame []byte, t Topic) {
	b.ReportAllocs()
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		f, err := decodeFrame(frame)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := decodeData(t, f.Data, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStreamTickerFrame decodes one streamed ticker notification: the frame and its data.
func BenchmarkStreamTickerFrame(b *testing.B) {
	benchDecode(b, tickerFrame(1), Topic{Channel: ChanTicker, Symbol: "all"})
}

// BenchmarkStreamMidsFrame decodes one mids notification of 509 instruments.
func BenchmarkStreamMidsFrame(b *testing.B) {
	benchDecode(b, midsFrame(509), Topic{Channel: ChanMids, Symbol: "all"})
}

// bytesPerRun is the heap bytes one call of f allocates, averaged over runs.
func bytesPerRun(runs int, f func()) float64 {
	f()
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	for range runs {
		f()
	}
	runtime.ReadMemStats(&b)
	return float64(b.TotalAlloc-a.TotalAlloc) / float64(runs)
}

// TestStreamHotChannelsDecodeInOnePass: a ticker notification and a mids list of 509
// instruments are decoded with well under the garbage and the allocations encoding/json makes of
// them (it validated and decoded the frame, its params and each row apart; NewFromString copied
// each price into a string), measured against encoding/json's path in the same test. Guards: the
// fast decoders bypassed or declining what the simulator sends; prices read through
// UnmarshalJSON again.
func TestStreamHotChannelsDecodeInOnePass(t *testing.T) {
	for _, c := range []struct {
		frame []byte
		topic Topic
	}{
		{tickerFrame(1), Topic{Channel: ChanTicker, Symbol: "all"}},
		{midsFrame(509), Topic{Channel: ChanMids, Symbol: "all"}},
	} {
		fastRun := func() {
			f, err := decodeFrame(c.frame)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := decodeData(c.topic, f.Data, nil); err != nil {
				t.Fatal(err)
			}
		}
		slowRun := func() {
			f, err := decodeFrameJSON(c.frame)
			if err != nil {
				t.Fatal(err)
			}
			if c.topic.Channel == ChanTicker {
				_, err = decodeEach(c.topic, f.Data, nil, func(x *Ticker) string { return "ticker:" + x.Symbol }, fixTicker)
			} else {
				_, err = decodeMids(f.Data, nil)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		fast, slow := bytesPerRun(20, fastRun), bytesPerRun(20, slowRun)
		if n, m := testing.AllocsPerRun(20, fastRun), testing.AllocsPerRun(20, slowRun); n > 0.8*m {
			t.Errorf("%s: %.0f allocations a notification, encoding/json's path %.0f: want at most 80%%", c.topic, n, m)
		}
		if fast > 0.7*slow {
			t.Errorf("%s: %.0f bytes a notification, encoding/json's path %.0f: want at most 70%%", c.topic, fast, slow)
		}
	}
}
