package api

import "fmt"

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
	case userLimitParams: // transfer_history, account_history
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

// Error is the limit the answer broke.
func (e *LimitError) Error() string { return e.What }

// CheckAnswer checks a JSON answer against the limits in one pass over its bytes, allocating
// nothing: no array holds more than maxItems elements and no object more than maxItems members,
// nothing nests deeper than MaxDepth, and no number (bare, or as a whole string) is longer than
// 80 characters or has an exponent beyond ±64 (a decimal "1e999999999" would print as a
// gigabyte). It does not check the grammar: the decoder does. The poll decode (as the body is
// read, see AnswerScan) and the stream decode both call it.
func CheckAnswer(b []byte, maxItems int) error {
	sc := NewAnswerScan(maxItems)
	if err := sc.Write(b); err != nil {
		return err
	}
	return sc.Close()
}

// AnswerScan is CheckAnswer fed a piece at a time, as a body is read: the reading stops at the
// first piece over a limit, so a 14 MB list of 380,000 records is refused after its first 5,000
// and an endless body after as many, never read to the end.
type AnswerScan struct {
	max   int
	depth int
	n     [MaxDepth + 1]int  // values seen in the open container at each depth
	obj   [MaxDepth + 1]bool // the container at that depth is an object (keys count as values)
	// The token that a piece ended inside: a string (escape: after a backslash) or a bare
	// number or literal; tok holds its first bytes, toklen its length.
	inString, escape, inBare bool
	tok                      [maxNumberLen + 2]byte
	toklen                   int
	err                      error
}

// NewAnswerScan starts a scan with maxItems entries per list at most.
func NewAnswerScan(maxItems int) *AnswerScan { return &AnswerScan{max: maxItems} }

// Write scans the next piece of the answer; once over a limit it returns the *LimitError, and
// again on every later call.
func (sc *AnswerScan) Write(b []byte) error {
	for i := 0; i < len(b) && sc.err == nil; i++ {
		c := b[i]
		switch {
		case sc.inString:
			sc.stringByte(c)
		case sc.inBare:
			if !endsBare(c) {
				sc.keep(c)
				continue
			}
			sc.endBare()
			i-- // the byte after the token is read again
		case c == '[' || c == '{':
			sc.open(c == '{')
		case c == ']' || c == '}':
			if sc.depth > 0 {
				sc.depth--
			}
		case c == '"':
			sc.inString, sc.toklen = true, 0
		case c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n':
			sc.inBare, sc.toklen = true, 0
			sc.keep(c)
		}
	}
	return sc.err
}

// endsBare reports whether c ends a bare token (a number or a literal): whitespace, a
// separator, a bracket or a quote.
func endsBare(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ',', ':', ']', '}', '[', '{', '"':
		return true
	}
	return false
}

// Close ends the answer: a number at the very end is checked.
func (sc *AnswerScan) Close() error {
	if sc.inBare && sc.err == nil {
		sc.endBare()
	}
	return sc.err
}

// stringByte takes one byte inside a string.
func (sc *AnswerScan) stringByte(c byte) {
	switch {
	case sc.escape:
		sc.escape = false
		sc.keep(c)
	case c == '\\':
		sc.escape = true
		sc.keep(c)
	case c == '"':
		sc.inString = false
		sc.endToken()
	default:
		sc.keep(c)
	}
}

// keep records one byte of the current token: only as many as the number check needs.
func (sc *AnswerScan) keep(c byte) {
	if sc.toklen < len(sc.tok) {
		sc.tok[sc.toklen] = c
	}
	sc.toklen++
}

func (sc *AnswerScan) endBare() {
	sc.inBare = false
	sc.endToken()
}

// endToken checks the token just ended as a number and counts it as a value.
func (sc *AnswerScan) endToken() {
	t := sc.tok[:min(sc.toklen, len(sc.tok))]
	if sc.toklen > maxNumberLen && looksNumeric(t) {
		sc.err = &LimitError{What: fmt.Sprintf("a number of %d characters: at most %d", sc.toklen, maxNumberLen)}
		return
	}
	if err := checkNumberText(t); err != nil {
		sc.err = &LimitError{What: err.Error()}
		return
	}
	sc.value()
}

// open counts a container as a value of the one around it and enters it.
func (sc *AnswerScan) open(object bool) {
	if sc.value(); sc.err != nil {
		return
	}
	if sc.depth == MaxDepth {
		sc.err = &LimitError{What: fmt.Sprintf("nested more than %d deep", MaxDepth)}
		return
	}
	sc.depth++
	sc.n[sc.depth], sc.obj[sc.depth] = 0, object
}

// value counts one value (or key) in the open container and fails past the limit.
func (sc *AnswerScan) value() {
	if sc.depth == 0 {
		return
	}
	sc.n[sc.depth]++
	limit := sc.max
	if sc.obj[sc.depth] {
		limit = 2 * sc.max // a key and a value per member
	}
	if sc.n[sc.depth] > limit {
		sc.err = &LimitError{What: fmt.Sprintf("over %d entries in one list", sc.max), TooMany: true}
	}
}
