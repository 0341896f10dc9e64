package state

import (
	"reflect"
	"sync"

	"github.com/tradedesk/tradedesk/api/text"
)

// cleanMsg returns msg with every string a server chose (instrument and collateral names,
// cloids, addresses, states, map keys) passed through text.Clean, so no pane ever draws raw
// server text and none has to clean it itself. The records arrive as the api decoded them
// (headless --json prints them exactly); only the store's copy is cleaned. A message with
// nothing to clean, the usual case, is returned as it is, and one that needs cleaning is copied
// first: the poll that built it may still hold its slices.
func cleanMsg(msg Msg) Msg {
	if m, ok := msg.(TickerUpdateMsg); ok && text.Safe(m.Ticker.Symbol) && text.Safe(m.Ticker.Type) {
		// The stream's most frequent message (500 a second with 500 instruments, issue #34)
		// checked without reflection: a ticker's only strings are these two
		// (TestTheTickerFastPathSeesEveryString).
		return msg
	}
	v := reflect.ValueOf(msg)
	if !v.IsValid() || !dirty(v) {
		return msg
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	cleanValue(c)
	return c.Interface().(Msg)
}

// dirty reports whether v holds a string, in an exported field, element or map key, that
// text.Clean would change.
func dirty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.String:
		return !text.Safe(v.String())
	case reflect.Struct:
		for _, i := range stringFields(v.Type()) {
			if dirty(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		if !hasStrings(v.Type().Elem()) {
			return false
		}
		for i := range v.Len() {
			if dirty(v.Index(i)) {
				return true
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if dirty(it.Key()) || dirty(it.Value()) {
				return true
			}
		}
	case reflect.Pointer:
		return !v.IsNil() && dirty(v.Elem())
	}
	return false
}

// fieldPlans caches stringFields per struct type (reflect.Type.Field allocates, and a poll of
// ten thousand fills would look at every field of every one).
var fieldPlans sync.Map // reflect.Type -> []int

// stringFields lists the indices of a struct type's exported fields that can hold a string.
func stringFields(t reflect.Type) []int {
	if p, ok := fieldPlans.Load(t); ok {
		return p.([]int)
	}
	var idx []int
	for i := range t.NumField() {
		if f := t.Field(i); f.IsExported() && hasStrings(f.Type) {
			idx = append(idx, i)
		}
	}
	fieldPlans.Store(t, idx)
	return idx
}

// hasStrings reports whether a value of type t can hold a string in an exported field, so a
// slice of candles or decimals is skipped without looking at its elements.
func hasStrings(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.String, reflect.Map, reflect.Interface:
		return true
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && hasStrings(f.Type) {
				return true
			}
		}
	case reflect.Slice, reflect.Array, reflect.Pointer:
		return hasStrings(t.Elem())
	}
	return false
}

// cleanValue cleans the settable v in place; slices, maps and pointed-to values are copied
// before they change.
func cleanValue(v reflect.Value) {
	if !dirty(v) {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(text.Clean(v.String()))
	case reflect.Struct:
		for _, i := range stringFields(v.Type()) {
			cleanValue(v.Field(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			cleanValue(v.Index(i))
		}
	case reflect.Slice:
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(n, v)
		for i := range n.Len() {
			cleanValue(n.Index(i))
		}
		v.Set(n)
	case reflect.Map:
		n := reflect.MakeMapWithSize(v.Type(), v.Len())
		for it := v.MapRange(); it.Next(); {
			k, e := settable(it.Key()), settable(it.Value())
			cleanValue(k)
			cleanValue(e)
			n.SetMapIndex(k, e)
		}
		v.Set(n)
	case reflect.Pointer:
		e := settable(v.Elem())
		cleanValue(e)
		v.Set(e.Addr())
	}
}

// settable returns a settable copy of v.
func settable(v reflect.Value) reflect.Value {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}
