package sim

import (
	"encoding/hex"
	"fmt"
	"math/big"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/internal/secp"
)

// The strict reading of the wire format (protocol.md, "What the simulator checks"). checkStrict
// runs on the raw body before the engine is locked, so a malformed or huge request costs only
// its own goroutine.

// maxDecimalLen bounds a decimal's text; maxIntLen an integer's.
const (
	maxDecimalLen = 64
	maxIntLen     = 20
)

// maxExpiry is the furthest expiresAfter may lie after the nonce.
const maxExpiry = 24 * time.Hour

// Field kinds of action.data.
const (
	fInt     = iota // a JSON integer
	fDecimal        // a plain decimal string
	fOptDec         // a plain decimal string or ""
	fString
	fBool
	fOrders
	fCancelOids
	fCancelCloids
	fAddress
	fEnum
	fLeverage     // a JSON integer or a string of digits (leverageValue)
	fAgentAddress // an agent's or broker's address (plainAddress)
)

type field struct {
	name string
	kind int
	enum []string // fEnum: the values allowed, exactly
	hint string   // fEnum: how to fix a wrong value
}

var (
	orderFields = []field{{name: "instrumentId", kind: fInt},
		{name: "side", kind: fEnum, enum: []string{"b", "s"}, hint: `use "b" (buy) or "s" (sell)`},
		{name: "positionSide", kind: fEnum, enum: []string{"BOTH", "LONG", "SHORT"}, hint: "send BOTH (one-way)"},
		{name: "price", kind: fOptDec}, {name: "size", kind: fDecimal},
		{name: "tif", kind: fEnum, enum: []string{"GTC", "IOC", "FOK"}, hint: "use GTC, IOC or FOK, in capitals"},
		{name: "ro", kind: fBool}, {name: "po", kind: fBool}, {name: "cloid", kind: fString},
		{name: "triggerPx", kind: fOptDec}, {name: "isMarket", kind: fBool},
		{name: "tpsl", kind: fEnum, enum: []string{"tp", "sl", ""}, hint: `use "tp", "sl" or ""`},
		{name: "grouping", kind: fEnum, enum: []string{"normal", "position", ""}, hint: `use "normal", "position" or ""`}}
	cancelOidFields   = []field{{name: "oid", kind: fInt}, {name: "instrumentId", kind: fInt}}
	cancelCloidFields = []field{{name: "cloid", kind: fString}, {name: "instrumentId", kind: fInt}}
	expiryNonce       = []field{{name: "expiresAfter", kind: fInt}, {name: "nonce", kind: fInt}}
	transferFields    = []field{{name: "collateralId", kind: fInt}, {name: "amount", kind: fDecimal},
		{name: "destination", kind: fAddress}, {name: "nonce", kind: fInt}}
	withdrawFields = []field{{name: "collateralId", kind: fInt}, {name: "amount", kind: fDecimal},
		{name: "chainId", kind: fInt}, {name: "nonce", kind: fInt}}
	// dataFields lists, per tx type, the keys action.data must hold (protocol.md's key table).
	dataFields = map[uint16][]field{
		api.TxPlaceOrder:         append([]field{{name: "orders", kind: fOrders}}, expiryNonce...),
		api.TxCancelByOid:        append([]field{{name: "cancels", kind: fCancelOids}}, expiryNonce...),
		api.TxCancelByCloid:      append([]field{{name: "cancels", kind: fCancelCloids}}, expiryNonce...),
		api.TxCancelByInstrument: append([]field{{name: "instrumentId", kind: fInt}}, expiryNonce...),
		api.TxCancelAll:          expiryNonce,
		api.TxSpotTransfer:       transferFields,
		api.TxDerivativeTransfer: transferFields,
		api.TxInternalTransfer: {{name: "collateralId", kind: fInt}, {name: "amount", kind: fDecimal},
			{name: "toDerivativesAccount", kind: fBool}, {name: "nonce", kind: fInt}},
		api.TxSpotWithdraw:       withdrawFields,
		api.TxDerivativeWithdraw: withdrawFields,
	}
)

// checkStrict checks an /exchange body's form: one value per key, the exact keys of its action,
// JSON integers, plain decimals, exact enums, a canonical signature, an expiry within its bounds,
// distinct cloids, a destination that is a real address. Errors are *httpError.
func checkStrict(body []byte, now time.Time) error {
	root, err := parseJSON(body)
	if err != nil {
		return badRequest("%v", err)
	}
	if root.kind != 'o' {
		return badRequest("body is %s: send a JSON object {action, signature, nonce}", root.kindName())
	}
	if err := checkSignature(root.get("signature")); err != nil {
		return err
	}
	nonce, err := intField(root, "nonce", "nonce")
	if err != nil {
		return err
	}
	if err := nonceWindow(nonce, now); err != nil {
		return err
	}
	action := root.get("action")
	if action == nil || action.kind != 'o' {
		return badRequest("action is missing or not an object: send {type, data}")
	}
	info, ok := actionOf(action.get("type"))
	if !ok {
		return nil // the decoder names the unknown type
	}
	data := action.get("data")
	if data == nil || data.kind != 'o' {
		return badRequest("action.data is missing or not an object")
	}
	c := strictCheck{path: "action.data", nonce: nonce, now: now}
	return c.object(data, dataFields[info.TxType])
}

// actionOf reads action.type: the spec's name or the tx type as text or a number.
func actionOf(t *jnode) (api.ActionInfo, bool) {
	if t == nil || (t.kind != 's' && t.kind != 'n') {
		return api.ActionInfo{}, false
	}
	return api.LookupAction(t.text)
}

// intField reads a required JSON integer key of an object.
func intField(obj *jnode, key, path string) (uint64, error) {
	v := obj.get(key)
	if v == nil {
		return 0, badRequest("%s is missing", path)
	}
	return jsonInt(v, path)
}

// jsonInt reads a non-negative JSON integer (not a string, no fraction or exponent).
func jsonInt(v *jnode, path string) (uint64, error) {
	if v.kind != 'n' {
		return 0, badRequest("%s is %s: send a JSON integer, without quotes", path, v.kindName())
	}
	if len(v.text) > maxIntLen {
		return 0, badRequest("%s %s… has more than %d digits: send an integer that fits 64 bits", path, trunc(v.text, 20), maxIntLen)
	}
	n, err := strconv.ParseUint(v.text, 10, 64)
	if err != nil {
		return 0, badRequest("%s %s is not a non-negative integer of at most 64 bits: send a JSON integer without sign, fraction or exponent", path, trunc(v.text, 24))
	}
	return n, nil
}

// strictCheck walks action.data.
type strictCheck struct {
	path   string
	nonce  uint64
	now    time.Time
	cloids map[string]int // cloid → 1-based order number, within this request
	order  int            // the 1-based number of the order being checked
}

// object checks that obj holds exactly the listed keys, each of its kind.
func (c *strictCheck) object(obj *jnode, fields []field) error {
	for _, k := range obj.keys {
		if !hasField(fields, k) {
			return badRequest("%s has the key %q, which this action does not take: send only %s", c.path, trunc(k, 40), fieldNames(fields))
		}
	}
	isMarket := obj.get("isMarket")
	for _, f := range fields {
		v := obj.get(f.name)
		path := c.path + "." + f.name
		if v == nil {
			return badRequest("%s is missing: this action takes %s", path, fieldNames(fields))
		}
		market := isMarket != nil && isMarket.kind == 'b' && isMarket.b
		if err := c.value(v, f, path, market); err != nil {
			return err
		}
	}
	return c.expiry(obj)
}

func hasField(fields []field, k string) bool {
	for _, f := range fields {
		if f.name == k {
			return true
		}
	}
	return false
}

func fieldNames(fields []field) string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.name
	}
	return strings.Join(names, ", ")
}

// value checks one field. A market order's price may be "" (the mark ± 5%).
func (c *strictCheck) value(v *jnode, f field, path string, market bool) error {
	switch f.kind {
	case fInt:
		_, err := jsonInt(v, path)
		return err
	case fDecimal, fOptDec:
		if v.kind != 's' {
			return badRequest("%s is %s: send the decimal as a string, like \"0.01\"", path, v.kindName())
		}
		if v.text == "" && (f.kind == fOptDec && (f.name == "triggerPx" || market)) {
			return nil
		}
		return plainDecimal(f.name, v.text)
	case fString, fAddress, fEnum:
		if v.kind != 's' {
			return badRequest("%s is %s: send a string", path, v.kindName())
		}
		if f.kind == fAddress {
			return destination(v.text)
		}
		if f.kind == fEnum {
			return enumValue(f, v.text)
		}
		return c.cloid(f, v.text, path)
	case fBool:
		if v.kind != 'b' {
			return badRequest("%s is %s: send true or false", path, v.kindName())
		}
		return nil
	case fLeverage:
		return leverageValue(v, path)
	case fAgentAddress:
		if v.kind != 's' {
			return badRequest("%s is %s: send a string", path, v.kindName())
		}
		return plainAddress(v.text, path)
	}
	return c.list(v, f, path)
}

// list checks the orders or cancels array, each element an object of exact keys.
func (c *strictCheck) list(v *jnode, f field, path string) error {
	if v.kind != 'a' {
		return badRequest("%s is %s: send an array", path, v.kindName())
	}
	if len(v.arr) == 0 {
		return badRequest("%s carries no orders or cancels: send 1 to %d", path, api.MaxBatch)
	}
	if len(v.arr) > api.MaxBatch {
		return badRequest("%s carries %d orders or cancels: send at most %d in one request", path, len(v.arr), api.MaxBatch)
	}
	fields := orderFields
	switch f.kind {
	case fCancelOids:
		fields = cancelOidFields
	case fCancelCloids:
		fields = cancelCloidFields
	}
	if f.kind == fOrders {
		c.cloids = map[string]int{}
	}
	for i, el := range v.arr {
		if el.kind != 'o' {
			return badRequest("%s[%d] is %s: send an object", path, i, el.kindName())
		}
		sub := strictCheck{path: fmt.Sprintf("%s[%d]", path, i), nonce: c.nonce, now: c.now, cloids: c.cloids, order: i + 1}
		if err := sub.objectNoExpiry(el, fields); err != nil {
			if f.kind == fOrders {
				return badRequest("order %d: %v", i+1, err)
			}
			return badRequest("cancel %d: %v", i+1, err)
		}
	}
	return nil
}

// objectNoExpiry checks an order or cancel element (they carry no expiresAfter of their own).
func (c *strictCheck) objectNoExpiry(obj *jnode, fields []field) error {
	for _, k := range obj.keys {
		if !hasField(fields, k) {
			return fmt.Errorf("%s has the key %q, which is not part of it: send only %s", c.path, trunc(k, 40), fieldNames(fields))
		}
	}
	isMarket := obj.get("isMarket")
	market := isMarket != nil && isMarket.kind == 'b' && isMarket.b
	for _, f := range fields {
		v := obj.get(f.name)
		if v == nil {
			return fmt.Errorf("%s.%s is missing: send every key of %s", c.path, f.name, fieldNames(fields))
		}
		if err := c.value(v, f, c.path+"."+f.name, market); err != nil {
			return err
		}
	}
	return nil
}

// cloid checks a client order id: at most 128 characters, and unique within one placeOrder.
func (c *strictCheck) cloid(f field, s, path string) error {
	if f.name != "cloid" {
		return nil
	}
	if len(s) > 128 {
		return badRequest("%s is %d characters long: send at most 128 (a UUID has 36)", path, len(s))
	}
	if c.cloids == nil || s == "" {
		return nil
	}
	if first, dup := c.cloids[s]; dup {
		return badRequest("cloid %q is used by orders %d and %d of this request: give each order its own cloid", trunc(s, 64), first, c.order)
	}
	c.cloids[s] = c.order
	return nil
}

// expiry checks expiresAfter, where the action has one: after now, at most a day after the nonce.
func (c *strictCheck) expiry(obj *jnode) error {
	v := obj.get("expiresAfter")
	if v == nil {
		return nil
	}
	exp, _ := jsonInt(v, "expiresAfter")
	now := uint64(c.now.UnixMilli())
	if exp <= now {
		return badRequest("request expired: expiresAfter %d is not after now (%d); sign it again with a later expiresAfter", exp, now)
	}
	if exp <= c.nonce {
		return badRequest("expiresAfter %d is not after the nonce %d: send the nonce plus the time the request may wait (the SDKs use 60 s)", exp, c.nonce)
	}
	if limit := c.nonce + uint64(maxExpiry.Milliseconds()); exp > limit {
		return badRequest("expiresAfter %d is more than a day after the nonce %d: send at most %d (the SDKs use the nonce + 60 s)", exp, c.nonce, limit)
	}
	return nil
}

// plainDecimal checks a decimal's text: ^[0-9]+(\.[0-9]+)?$, at most 64 characters, the length
// checked first.
func plainDecimal(name, s string) error {
	if len(s) > maxDecimalLen {
		return badRequest("%s %q… is %d characters long: send at most %d", name, s[:20], len(s), maxDecimalLen)
	}
	dot := -1
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] >= '0' && s[i] <= '9':
		case s[i] == '.' && dot < 0 && i > 0 && i < len(s)-1:
			dot = i
		default:
			return badRequest("%s %q is not a decimal number in plain form: write digits with an optional dot and digits (like 97000.5), without sign, exponent, spaces or a leading dot", name, trunc(s, 30))
		}
	}
	if s == "" {
		return badRequest("%s is empty: send a decimal number such as 0.01", name)
	}
	return nil
}

// enumValue checks an enum's value exactly (case included).
func enumValue(f field, s string) error {
	for _, v := range f.enum {
		if s == v {
			return nil
		}
	}
	return badRequest("%s %q is not valid: %s", f.name, trunc(s, 20), f.hint)
}

// destination checks a transfer's destination as the console does: a 0x address with a valid
// EIP-55 checksum when it is mixed case, and not the zero address.
func destination(s string) error {
	a, err := api.ChecksumAddress(s)
	if err != nil {
		return badRequest("destination: %v", err)
	}
	if a == "0x0000000000000000000000000000000000000000" {
		return badRequest("destination is the zero address: collateral sent there is lost; paste the receiving account's address")
	}
	return nil
}

// secpHalfN is half the order of secp256k1: a canonical signature's s is at most this.
var secpHalfN = new(big.Int).Rsh(secp.Order(), 1)

// checkSignature refuses non-canonical signatures (answered 401 like other signature failures):
// s above n/2 (the malleable twin of a valid signature) or v other than 27 or 28. Malformed
// hex is left to the decoder, which says what is wrong.
func checkSignature(v *jnode) error {
	if v == nil || v.kind != 's' || len(v.text) != 132 || !strings.HasPrefix(v.text, "0x") {
		return nil
	}
	sig, err := hex.DecodeString(v.text[2:])
	if err != nil {
		return nil
	}
	if r := sig[64]; r != 27 && r != 28 {
		return &httpError{status: http.StatusUnauthorized, msg: fmt.Sprintf(
			"signature: recovery byte v is %d: send 27 or 28 (add 27 to a 0/1 recovery id)", r)}
	}
	if new(big.Int).SetBytes(sig[32:64]).Cmp(secpHalfN) > 0 {
		return &httpError{status: http.StatusUnauthorized, msg: "signature: s is above n/2 (a high-s signature): " +
			"canonical signatures use low s; replace s with n − s and flip v between 27 and 28"}
	}
	return nil
}

// nonceWindow refuses a nonce outside (now − 2 days, now + 1 day) before anything else about the
// request is judged (the expiry bound is relative to it). Reuse is checked under the lock.
func nonceWindow(nonce uint64, now time.Time) error {
	lo := uint64(now.Add(-nonceBehind).UnixMilli())
	hi := uint64(now.Add(nonceAhead).UnixMilli())
	if nonce <= lo || nonce >= hi {
		return &httpError{status: http.StatusUnauthorized, msg: fmt.Sprintf(
			"nonce %d is outside the accepted window (%d, %d): use the current time in Unix milliseconds", nonce, lo, hi)}
	}
	return nil
}
