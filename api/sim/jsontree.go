package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
// taking the first and another the last would act on different data) or anything after it.
func parseJSON(body []byte) (*jnode, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	n, err := readValue(dec, "body", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("body holds more than one JSON value: send one object")
	}
	return n, nil
}

func readValue(dec *json.Decoder, path string, depth int) (*jnode, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("%s nests deeper than %d levels", path, maxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("body is not a JSON object as expected: invalid JSON at %s: %v", path, err)
	}
	switch v := tok.(type) {
	case json.Delim:
		if v == '{' {
			return readObject(dec, path, depth)
		}
		if v == '[' {
			return readArray(dec, path, depth)
		}
		return nil, fmt.Errorf("body is not a JSON object as expected: unexpected %q at %s", v, path)
	case string:
		return &jnode{kind: 's', text: v}, nil
	case json.Number:
		return &jnode{kind: 'n', text: string(v)}, nil
	case bool:
		return &jnode{kind: 'b', b: v}, nil
	case nil:
		return &jnode{kind: 'z'}, nil
	}
	return nil, fmt.Errorf("body is not a JSON object as expected: invalid JSON at %s", path)
}

func readObject(dec *json.Decoder, path string, depth int) (*jnode, error) {
	n := &jnode{kind: 'o'}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("body is not a JSON object as expected: invalid JSON in %s: %v", path, err)
		}
		k, _ := tok.(string)
		if seen[k] {
			return nil, fmt.Errorf("%s has the key %q twice: send each key once", path, trunc(k, 40))
		}
		seen[k] = true
		v, err := readValue(dec, path+"."+trunc(k, 40), depth+1)
		if err != nil {
			return nil, err
		}
		n.keys = append(n.keys, k)
		n.vals = append(n.vals, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("body is not a JSON object as expected: invalid JSON in %s: %v", path, err)
	}
	return n, nil
}

func readArray(dec *json.Decoder, path string, depth int) (*jnode, error) {
	n := &jnode{kind: 'a'}
	for dec.More() {
		v, err := readValue(dec, fmt.Sprintf("%s[%d]", path, len(n.arr)), depth+1)
		if err != nil {
			return nil, err
		}
		n.arr = append(n.arr, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("body is not a JSON object as expected: invalid JSON in %s: %v", path, err)
	}
	return n, nil
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
