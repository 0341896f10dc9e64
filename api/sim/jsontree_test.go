package sim

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// toAny turns a parsed tree into what encoding/json (with UseNumber) makes of the same text.
func toAny(n *jnode) any {
	switch n.kind {
	case 'o':
		m := map[string]any{}
		for i, k := range n.keys {
			m[k] = toAny(n.vals[i])
		}
		return m
	case 'a':
		out := []any{}
		for _, v := range n.arr {
			out = append(out, toAny(v))
		}
		return out
	case 's':
		return n.text
	case 'n':
		return json.Number(n.text)
	case 'b':
		return n.b
	}
	return nil
}

// FuzzParseJSON: the strict parser reads every valid body exactly as encoding/json does, and
// refuses only bodies with a repeated key or deeper than maxDepth, or invalid ones.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[true,false,null,"x\u00e9\n"],"c":{"d":-1.5e3}}`, `[]`, `"s"`, ` {"a" : "b" } `,
		`{"a":1,"a":2}`, `{"k":"\ud83d\ude00","e":"\"\\"}`, "{\"bad\":\"\xff\"}", `[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		n, err := parseJSON(body)
		if !json.Valid(body) {
			if err == nil {
				t.Fatalf("invalid JSON %q accepted", body)
			}
			return
		}
		if err != nil {
			if !strings.Contains(err.Error(), "twice") && !strings.Contains(err.Error(), "nests deeper") {
				t.Fatalf("valid JSON %q refused: %v", body, err)
			}
			return
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if got := toAny(n); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: parsed %#v, encoding/json %#v", body, got, want)
		}
	})
}

// A repeated key is refused wherever it is, and a body of many keys is checked in linear time.
func TestParseJSONRepeatedKeys(t *testing.T) {
	t.Parallel()
	for _, body := range []string{`{"a":1,"a":1}`, `{"x":{"b":[{"c":1,"c":2}]}}`} {
		if _, err := parseJSON([]byte(body)); err == nil || !strings.Contains(err.Error(), "twice") {
			t.Errorf("%s: %v, want a repeated-key refusal", body, err)
		}
	}
	var b strings.Builder
	b.WriteString("{")
	for i := range 100000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":0`)
	}
	b.WriteString(`,"k0":1}`)
	if _, err := parseJSON([]byte(b.String())); err == nil || !strings.Contains(err.Error(), `"k0" twice`) {
		t.Errorf("100,000 keys and a repeat at the end: %v", err)
	}
}
