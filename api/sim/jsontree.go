package sim

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// jnode is one JSON value as written: objects keep their keys in order, numbers keep their text.
type jnode struct {
	kind byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' boolean, 'z' null
	keys []string
	vals []*jnode
	arr  []*jnode
	text string // a string's value or a number's text
	b    bool
}

// maxDepth bounds how deeply a body may nest.
const maxDepth = 16

// parseJSON reads one JSON value and refuses a body with a key twice in one object (one parser
// taking the first and another the last would act on different data). The body is validated
// first (json.Valid allocates nothing), so the scanner below may trust its shape.
func parseJSON(body []byte) (*jnode, error) {
	if !json.Valid(body) {
		var v any
		err := json.Unmarshal(body, &v)
		return nil, fmt.Errorf("body is not a JSON object as expected: invalid JSON: %v", err)
	}
	sc := scanner{b: body}
	return sc.value("body", 0)
}

// scanner walks a body that json.Valid accepted.
type scanner struct {
	b []byte
	i int
}

func (sc *scanner) skip() {
	for sc.i < len(sc.b) && (sc.b[sc.i] == ' ' || sc.b[sc.i] == '\t' || sc.b[sc.i] == '\n' || sc.b[sc.i] == '\r') {
		sc.i++
	}
}

func (sc *scanner) value(path string, depth int) (*jnode, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%s nests deeper than %d levels", path, maxDepth)
	}
	sc.skip()
	switch c := sc.b[sc.i]; c {
	case '{':
		return sc.object(path, depth)
	case '[':
		return sc.array(path, depth)
	case '"':
		s, err := sc.str()
		return &jnode{kind: 's', text: s}, err
	case 't':
		sc.i += 4
		return &jnode{kind: 'b', b: true}, nil
	case 'f':
		sc.i += 5
		return &jnode{kind: 'b'}, nil
	case 'n':
		sc.i += 4
		return &jnode{kind: 'z'}, nil
	}
	start := sc.i
	for sc.i < len(sc.b) && strings.IndexByte("+-.eE0123456789", sc.b[sc.i]) >= 0 {
		sc.i++
	}
	return &jnode{kind: 'n', text: string(sc.b[start:sc.i])}, nil
}

// str reads a string; escapes and non-UTF-8 bytes go through encoding/json, so the text is the
// one every other reader of the body sees.
func (sc *scanner) str() (string, error) {
	start := sc.i
	sc.i++
	escaped := false
	for sc.b[sc.i] != '"' {
		if sc.b[sc.i] == '\\' {
			escaped = true
			sc.i++
		}
		sc.i++
	}
	sc.i++
	raw := sc.b[start:sc.i]
	if !escaped && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1]), nil
	}
	var s string
	err := json.Unmarshal(raw, &s)
	return s, err
}

func (sc *scanner) object(path string, depth int) (*jnode, error) {
	n := &jnode{kind: 'o'}
	sc.i++ // {
	var seen map[string]bool
	for {
		sc.skip()
		if sc.b[sc.i] == '}' {
			sc.i++
			return n, nil
		}
		if sc.b[sc.i] == ',' {
			sc.i++
			sc.skip()
		}
		k, err := sc.str()
		if err != nil {
			return nil, err
		}
		if n.has(k, &seen) {
			return nil, fmt.Errorf("%s has the key %q twice: send each key once", path, trunc(k, 40))
		}
		sc.skip()
		sc.i++ // :
		v, err := sc.value(sc.childPath(path, k), depth+1)
		if err != nil {
			return nil, err
		}
		n.keys = append(n.keys, k)
		n.vals = append(n.vals, v)
	}
}

// has reports whether an object already has a key: a look through the keys while there are
// few, a map once there are many (a body of a million keys must not cost a million squared).
func (n *jnode) has(k string, seen *map[string]bool) bool {
	if len(n.keys) < 32 {
		for _, x := range n.keys {
			if x == k {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 2*len(n.keys))
		for _, x := range n.keys {
			(*seen)[x] = true
		}
	}
	if (*seen)[k] {
		return true
	}
	(*seen)[k] = true
	return false
}

// childPath names the value about to be read, for messages; only containers need a name (a
// leaf is never the subject of a nesting error), which saves building one for every field.
func (sc *scanner) childPath(path, key string) string {
	sc.skip()
	if c := sc.b[sc.i]; c != '{' && c != '[' {
		return ""
	}
	if key != "" && key[0] == '[' {
		return path + key
	}
	return path + "." + trunc(key, 40)
}

func (sc *scanner) array(path string, depth int) (*jnode, error) {
	n := &jnode{kind: 'a'}
	sc.i++ // [
	for {
		sc.skip()
		if sc.b[sc.i] == ']' {
			sc.i++
			return n, nil
		}
		if sc.b[sc.i] == ',' {
			sc.i++
		}
		v, err := sc.value(sc.childPath(path, "["+strconv.Itoa(len(n.arr))+"]"), depth+1)
		if err != nil {
			return nil, err
		}
		n.arr = append(n.arr, v)
	}
}

// get returns an object's value for a key, or nil.
func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != 'o' {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// kindName names a node's JSON type for messages.
func (n *jnode) kindName() string {
	switch n.kind {
	case 'o':
		return "an object"
	case 'a':
		return "an array"
	case 's':
		return "a string"
	case 'n':
		return "a number"
	case 'b':
		return "a boolean"
	}
	return "null"
}
