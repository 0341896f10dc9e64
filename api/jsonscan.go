package api

import "bytes"

// jsonScan reads JSON text strictly, one pass, for the stream's fast decoders (fastFrame,
// fastTickers, fastMids). Every number and string it reads is held to checkNumbers' bounds (a
// frame it reads whole needs no separate check). It takes only what encoding/json reads the same
// way without doubt:
// a string kept must be printable ASCII without escapes, a key must match a field exactly. Anything
// else (an escape, a key that matches a field only case-insensitively, another type than the
// field's, text that is not JSON) makes the fast decoder decline, and the caller decodes with
// encoding/json as before: the two always agree (FuzzFastDecodersAgree).
type jsonScan struct {
	b []byte
	i int
}

// fastMaxDepth is the deepest a skipped value may nest before the fast decoder declines
// (encoding/json's own limit is 10,000; CheckAnswer's MaxDepth is lower still).
const fastMaxDepth = 64

func (s *jsonScan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// eat reads c after any whitespace; false (nothing read) when the next byte is another.
func (s *jsonScan) eat(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end reports whether only whitespace is left.
func (s *jsonScan) end() bool {
	s.ws()
	return s.i == len(s.b)
}

// peek is the next byte after whitespace (0 at the end).
func (s *jsonScan) peek() byte {
	s.ws()
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// value reads one value of any type and returns its text, as encoding/json's RawMessage holds it.
func (s *jsonScan) value() ([]byte, bool) {
	s.ws()
	start := s.i
	if !s.skip(0) {
		return nil, false
	}
	return s.b[start:s.i], true
}

// skip reads one value; false when it is not valid JSON (or nests past fastMaxDepth).
func (s *jsonScan) skip(depth int) bool {
	if depth > fastMaxDepth {
		return false
	}
	switch s.peek() {
	case '{':
		s.i++
		if s.eat('}') {
			return true
		}
		for {
			if _, _, ok := s.str(); !ok || !s.eat(':') || !s.skip(depth+1) {
				return false
			}
			if !s.eat(',') {
				return s.eat('}')
			}
		}
	case '[':
		s.i++
		if s.eat(']') {
			return true
		}
		for {
			if !s.skip(depth + 1) {
				return false
			}
			if !s.eat(',') {
				return s.eat(']')
			}
		}
	case '"':
		_, _, ok := s.str()
		return ok
	case 't':
		return s.lit("true")
	case 'f':
		return s.lit("false")
	case 'n':
		return s.lit("null")
	}
	return s.number()
}

func (s *jsonScan) lit(w string) bool {
	if !bytes.HasPrefix(s.b[s.i:], []byte(w)) {
		return false
	}
	s.i += len(w)
	return true
}

// str reads a string after any whitespace and returns what is between its quotes; plain says it
// is printable ASCII without escapes (so that text is the string itself).
func (s *jsonScan) str() (text []byte, plain, ok bool) {
	if !s.eat('"') {
		return nil, false, false
	}
	start, plain := s.i, true
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			text = s.b[start : s.i-1]
			return text, plain, numberOK(text)
		case c < 0x20:
			return nil, false, false
		case c == '\\':
			plain = false
			if !s.escape() {
				return nil, false, false
			}
			continue
		case c > 0x7e:
			plain = false
		}
		s.i++
	}
	return nil, false, false
}

// escape reads one escape sequence (at its backslash).
func (s *jsonScan) escape() bool {
	if s.i+1 >= len(s.b) {
		return false
	}
	switch s.b[s.i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.i += 2
		return true
	case 'u':
		if s.i+6 > len(s.b) {
			return false
		}
		for _, h := range s.b[s.i+2 : s.i+6] {
			if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
				return false
			}
		}
		s.i += 6
		return true
	}
	return false
}

// number reads a number in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
// within checkNumbers' bounds.
func (s *jsonScan) number() bool {
	start := s.i
	if !s.numberText() {
		return false
	}
	return numberOK(s.b[start:s.i])
}

// numberOK is checkNumberText's verdict on a token (a number, or a string's text), without a
// call for the text that does not start like a number (a key, a name).
func numberOK(t []byte) bool {
	if len(t) == 0 || !numStart(t[0]) {
		return true
	}
	return checkNumberText(t) == nil
}

func (s *jsonScan) numberText() bool {
	if s.i < len(s.b) && s.b[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.b) && s.b[s.i] == '0':
		s.i++
	case s.digits() == 0:
		return false
	}
	if s.i < len(s.b) && s.b[s.i] == '.' {
		s.i++
		if s.digits() == 0 {
			return false
		}
	}
	if s.i < len(s.b) && (s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		s.i++
		if s.i < len(s.b) && (s.b[s.i] == '+' || s.b[s.i] == '-') {
			s.i++
		}
		if s.digits() == 0 {
			return false
		}
	}
	return true
}

func (s *jsonScan) digits() int {
	n := 0
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' {
		s.i++
		n++
	}
	return n
}

// fields walks an object's members: for each, field is told its key (plain text: see str) and
// reads the value itself, reporting false to decline. A key that is not plain declines.
func (s *jsonScan) fields(field func(key []byte) bool) bool {
	if !s.eat('{') {
		return false
	}
	if s.eat('}') {
		return true
	}
	for {
		k, plain, ok := s.str()
		if !ok || !plain || !s.eat(':') || !field(k) {
			return false
		}
		if !s.eat(',') {
			return s.eat('}')
		}
	}
}

// other reads the value of a key no field takes, declining when the key would match one of
// names case-insensitively (encoding/json would take it as that field).
func (s *jsonScan) other(key []byte, names ...string) bool {
	for _, n := range names {
		if bytes.EqualFold(key, []byte(n)) {
			return false
		}
	}
	return s.skip(1)
}

// plainString reads a string value that is plain (see str).
func (s *jsonScan) plainString() (string, bool) {
	t, ok := s.plainText()
	if !ok {
		return "", false
	}
	return string(t), true
}

// plainText is plainString's text, not copied.
func (s *jsonScan) plainText() ([]byte, bool) {
	t, plain, ok := s.str()
	return t, ok && plain
}
