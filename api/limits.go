package api

import (
	"fmt"
	"strings"
)

// The limits on what the client accepts from an exchange, far above what a real one sends and
// low enough that a buggy or hostile server cannot take the trader's machine down. Every answer
// is checked against its limit before anything is decoded (CheckAnswer): a polled /info answer
// and a streamed notification alike.
const (
	// MaxMarketRecords bounds instruments, tickers, mids, collateral and positions per answer.
	MaxMarketRecords = 5000
	// MaxCandles bounds the candles of one chart answer.
	MaxCandles = 5000
	// MaxBookLevels bounds the levels of one side of an order book.
	MaxBookLevels = 5000
	// MaxOpenOrders bounds the open orders read in one poll (all pages together).
	MaxOpenOrders = 5000
	// MaxDepth bounds how deeply an answer nests arrays and objects (real answers nest 4 deep).
	MaxDepth = 32
	// pageSlack is added to the page size asked for: a server may round it up a little.
	pageSlack = 50
)

// PageLimit is the most records a page of size limit may bring: the size asked for plus a margin.
func PageLimit(limit int) int {
	if limit <= 0 {
		limit = DefaultPageSize
	}
	return limit + max(pageSlack, limit/2)
}

// limitFor is the most elements an array of a method's answer may hold, given its parameters
// (a page's size).
func limitFor(method string, params any) int {
	switch p := params.(type) {
	case pagedParams:
		return PageLimit(p.Limit)
	case brokersParams:
		return PageLimit(p.Limit)
	case tradesParams:
		if p.Limit > 0 {
			return PageLimit(p.Limit)
		}
	}
	switch method {
	case MethodChart:
		return MaxCandles
	case MethodOrderBook:
		return MaxBookLevels
	}
	return MaxMarketRecords
}

// ChannelLimit is the most elements an array of a streamed notification on channel may hold.
func ChannelLimit(channel string) int {
	switch channel {
	case ChanChart:
		return MaxCandles
	case ChanOrderBook:
		return MaxBookLevels
	}
	return MaxMarketRecords
}

// LimitError is an answer over one of the limits: too many elements in one array, nested too
// deep, or a number too long. The answer is refused before it is decoded.
type LimitError struct {
	What    string // what is over the limit, in words, the limit included
	TooMany bool   // a list over its length (else: nesting or a number)
}

func (e *LimitError) Error() string { return e.What }

// CheckAnswer checks a JSON answer against the limits in one pass over its bytes, allocating
// nothing: no array holds more than maxItems elements and no object more than maxItems members,
// nothing nests deeper than MaxDepth, and no number (bare, or as a whole string) is longer than
// 80 characters or has an exponent beyond ±64 (a decimal "1e999999999" would print as a
// gigabyte). It does not check the grammar: the decoder does. The poll decode and the stream
// decode both call it.
func CheckAnswer(b []byte, maxItems int) error {
	var sc shapeScan
	sc.max = maxItems
	for i := 0; i < len(b); i++ {
		var err error
		switch c := b[i]; {
		case c == '[' || c == '{':
			err = sc.open(c == '{')
		case c == ']' || c == '}':
			if sc.depth > 0 {
				sc.depth--
			}
		case c == '"':
			j := stringEnd(b, i)
			if err = checkNumberText(b[i+1 : max(i+1, j-1)]); err == nil { // j-1: the closing quote
				err = sc.value()
			}
			i = j - 1
		case c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n':
			j := i
			for j < len(b) && strings.IndexByte(" \t\r\n,:]}", b[j]) < 0 {
				j++
			}
			if err = checkNumberText(b[i:j]); err == nil {
				err = sc.value()
			}
			i = j - 1
		}
		if err != nil {
			if _, ok := err.(*LimitError); !ok {
				err = &LimitError{What: err.Error()}
			}
			return err
		}
	}
	return nil
}

// shapeScan is CheckAnswer's state: the open arrays and objects and what each holds so far.
type shapeScan struct {
	max   int
	depth int
	n     [MaxDepth + 1]int  // values seen in the open container at each depth
	obj   [MaxDepth + 1]bool // the container at that depth is an object (keys count as values)
}

// open counts a container as a value of the one around it and enters it.
func (sc *shapeScan) open(object bool) error {
	if err := sc.value(); err != nil {
		return err
	}
	if sc.depth == MaxDepth {
		return &LimitError{What: fmt.Sprintf("nested more than %d deep", MaxDepth)}
	}
	sc.depth++
	sc.n[sc.depth], sc.obj[sc.depth] = 0, object
	return nil
}

// value counts one value (or key) in the open container and fails past the limit.
func (sc *shapeScan) value() error {
	if sc.depth == 0 {
		return nil
	}
	sc.n[sc.depth]++
	limit := sc.max
	if sc.obj[sc.depth] {
		limit = 2 * sc.max // a key and a value per member
	}
	if sc.n[sc.depth] > limit {
		return &LimitError{What: fmt.Sprintf("over %d entries in one list", sc.max), TooMany: true}
	}
	return nil
}

// stringEnd is the index just past the string that opens at b[i] (len(b) when it never closes).
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}
