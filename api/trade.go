package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api/text"
)

// Position sides beyond BOTH (hedge mode).
const (
	PositionSideLong  = "LONG"
	PositionSideShort = "SHORT"
)

// Grouping values of an order.
const (
	GroupingNormal   = "normal"
	GroupingPosition = "position"
)

type envelopeAction struct {
	Type string     `json:"type"`
	Data ActionData `json:"data"`
}

type envelope struct {
	Action    envelopeAction `json:"action"`
	Signature string         `json:"signature"`
	Nonce     uint64         `json:"nonce"`
}

// EncodeRequest signs data for source and returns the full /exchange body:
// {"action":{"type":NAME,"data":{...}},"signature":"0x...","nonce":N}, with the spec's action
// name as type and data keys in signing order. action is the spec's name (or tx number).
func (s *Signer) EncodeRequest(source, action string, data ActionData) ([]byte, error) {
	info, ok := LookupAction(action)
	if !ok {
		return nil, fmt.Errorf("unknown action %q", truncate(action, 40))
	}
	body, _, err := s.encodeRequest(source, info, ActionTypeName, data)
	return body, err
}

// encodeRequest signs data and returns the /exchange body, its action.type written in form, and
// the signature.
func (s *Signer) encodeRequest(source string, info ActionInfo, form ActionTypeForm, data ActionData) (body []byte, sig string, err error) {
	sig, err = s.SignAction(source, info.TxType, data)
	if err != nil {
		return nil, "", err
	}
	nonce, _ := nonceAndExpiry(data)
	body, err = json.Marshal(envelope{Action: envelopeAction{Type: form.typeText(info), Data: data}, Signature: sig, Nonce: nonce})
	return body, sig, err
}

// nonce takes the next nonce of the signer and its expiry.
func (c *Client) nonce() (nonce, expires uint64) {
	n := c.signer.Nonces().Next(c.clock())
	return n, ExpiresAfter(n, c.window)
}

// send signs and posts one action, and logs it. It is never retried: a failure that may have
// reached the exchange is marked Ambiguous.
func (c *Client) send(ctx context.Context, info ActionInfo, data ActionData) (TxResponse, error) {
	op := "exchange " + info.Name
	if err := c.agentRefusal(info); err != nil {
		return TxResponse{}, err
	}
	if err := beforeSign(ctx, op, info, data); err != nil {
		return TxResponse{}, err
	}
	body, sig, err := c.signer.encodeRequest(c.source, info, c.actionType, data)
	if err != nil {
		return TxResponse{}, &Error{Kind: KindInvalid, Op: op, Err: err}
	}
	signed(ctx)
	cl := &call{path: "/exchange", name: info.Name, attempt: 1, attrs: actionAttrs(info, data, sig)}
	start := time.Now()
	r, reply, e := c.post(ctx, op, "/exchange", body, true, MaxMarketRecords)
	out, e := txOutcome(op, r, e)
	if e == nil {
		e = c.checkAttribution(op, out)
	}
	status := 0
	if r != nil {
		status = r.status
	}
	c.logCall(ctx, cl, start, body, reply, status, e)
	if e != nil {
		return out, e
	}
	return out, nil
}

// checkAttribution compares the account an answer names with the client's: an answer that
// credits another account is not success, whatever else it says. An answer without an address
// passes (not every exchange names it).
func (c *Client) checkAttribution(op string, out TxResponse) *Error {
	if out.Address == "" || SameAddress(out.Address, c.Address()) {
		return nil
	}
	who := text.Quote(out.Address)
	if a, err := ChecksumAddress(out.Address); err == nil {
		who = a
	}
	// No Status: "HTTP 200" would read as success, and the message must fit a status line.
	return &Error{Kind: KindServer, Op: op, Message: "the exchange attributed this action to " + who + "; nothing was done on your account"}
}

// txOutcome decodes the transaction response of one /exchange attempt and turns its error field
// or a false success into a KindServer error.
func txOutcome(op string, r *response, e *Error) (TxResponse, *Error) {
	var out TxResponse
	if r == nil {
		return out, e
	}
	if err := json.Unmarshal(r.body, &out); err != nil {
		if e != nil {
			return out, e
		}
		return out, &Error{Kind: KindDecode, Op: op, Status: r.status, Message: err.Error(), Err: err, ambiguous: true}
	}
	if e != nil {
		return out, e
	}
	if out.TxHash == "" && out.Success == nil && out.Error == "" && !hasData(out.Data) {
		return out, &Error{Kind: KindDecode, Op: op, Status: r.status, ambiguous: true,
			Message: "the answer is not a transaction response (no tx_hash, data, success or error): " + bodySnippet(r.body)}
	}
	if out.Error != "" {
		return out, &Error{Kind: KindServer, Op: op, Status: r.status, Message: truncate(out.Error, 300)}
	}
	if out.Success != nil && !*out.Success {
		return out, &Error{Kind: KindServer, Op: op, Status: r.status, Message: failedCancels(out)}
	}
	return out, nil
}

// failedCancels says which cancels of an answer with success false failed, and why.
func failedCancels(r TxResponse) string {
	sts, err := r.CancelStatuses()
	if err != nil || len(sts) == 0 {
		return "the exchange answered success false"
	}
	var failed []string
	for i, s := range sts {
		if !s.OK {
			failed = append(failed, fmt.Sprintf("cancel %d: %s", i+1, truncate(s.Error, 100)))
		}
	}
	if len(failed) > 5 {
		failed = append(failed[:5], "…")
	}
	return fmt.Sprintf("%d of %d cancels failed (%s)", len(sts)-countOK(sts), len(sts), strings.Join(failed, "; "))
}

func countOK(sts []CancelStatus) int {
	n := 0
	for _, s := range sts {
		if s.OK {
			n++
		}
	}
	return n
}

// hasData reports whether a transaction response's data holds something other than null.
func hasData(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && string(raw) != "null"
}

func (c *Client) canTrade(op string) error {
	if c.configErr != nil {
		return &Error{Kind: KindInvalid, Op: op, Message: c.configErr.Error()}
	}
	if c.signer == nil {
		return invalid(op, "read-only client: load a key (keystore or TRADEDESK_PRIVATE_KEY) to trade")
	}
	return nil
}

func batchErr(op, what string, n int) error {
	if n < 1 || n > MaxBatch {
		return invalid(op, "%d %s: send 1 to %d in one request", n, what, MaxBatch)
	}
	return nil
}

// PlaceOrders signs and sends 1 to 100 orders in one placeOrder action. Each order is checked
// before signing (side, position side, tif, decimals, tpsl, grouping).
func (c *Client) PlaceOrders(ctx context.Context, orders []OrderWire) (TxResponse, error) {
	op := "exchange " + ActionPlaceOrder
	if err := c.canTrade(op); err != nil {
		return TxResponse{}, err
	}
	if err := batchErr(op, "orders", len(orders)); err != nil {
		return TxResponse{}, err
	}
	for i := range orders {
		if err := ValidateOrder(&orders[i]); err != nil {
			return TxResponse{}, invalid(op, "order %d: %v", i+1, err)
		}
	}
	n, exp := c.nonce()
	d := &PlaceOrderData{Orders: orders, ExpiresAfter: exp, Nonce: n}
	return c.send(ctx, mustAction(ActionPlaceOrder), d)
}

// CancelByOid cancels 1 to 100 orders by exchange order id.
func (c *Client) CancelByOid(ctx context.Context, cancels []CancelOid) (TxResponse, error) {
	op := "exchange " + ActionCancelByOid
	if err := c.canTrade(op); err != nil {
		return TxResponse{}, err
	}
	if err := batchErr(op, "cancels", len(cancels)); err != nil {
		return TxResponse{}, err
	}
	for i, x := range cancels {
		if x.InstrumentID < 0 {
			return TxResponse{}, invalid(op, "cancel %d: instrument id %d is negative", i+1, x.InstrumentID)
		}
	}
	n, exp := c.nonce()
	return c.send(ctx, mustAction(ActionCancelByOid), &CancelByOidData{Cancels: cancels, ExpiresAfter: exp, Nonce: n})
}

// CancelByCloid cancels 1 to 100 orders by client order id (tx type 1312, real exchange).
func (c *Client) CancelByCloid(ctx context.Context, cancels []CancelCloid) (TxResponse, error) {
	op := "exchange " + ActionCancelByCloid
	if err := c.canTrade(op); err != nil {
		return TxResponse{}, err
	}
	if err := batchErr(op, "cancels", len(cancels)); err != nil {
		return TxResponse{}, err
	}
	for i, x := range cancels {
		if x.Cloid == "" {
			return TxResponse{}, invalid(op, "cancel %d: cloid is empty", i+1)
		}
		if x.InstrumentID < 0 {
			return TxResponse{}, invalid(op, "cancel %d: instrument id %d is negative", i+1, x.InstrumentID)
		}
	}
	n, exp := c.nonce()
	return c.send(ctx, mustAction(ActionCancelByCloid), &CancelByCloidData{Cancels: cancels, ExpiresAfter: exp, Nonce: n})
}

// CancelByInstrument cancels all of the account's open orders on one instrument.
func (c *Client) CancelByInstrument(ctx context.Context, id InstrumentID) (TxResponse, error) {
	op := "exchange " + ActionCancelByInstrument
	if err := c.canTrade(op); err != nil {
		return TxResponse{}, err
	}
	if id < 0 {
		return TxResponse{}, invalid(op, "instrument id %d is negative", id)
	}
	n, exp := c.nonce()
	return c.send(ctx, mustAction(ActionCancelByInstrument), &CancelByInstrumentData{InstrumentID: id, ExpiresAfter: exp, Nonce: n})
}

// CancelAll cancels all of the account's open orders on every instrument.
func (c *Client) CancelAll(ctx context.Context) (TxResponse, error) {
	if err := c.canTrade("exchange " + ActionCancelAll); err != nil {
		return TxResponse{}, err
	}
	n, exp := c.nonce()
	return c.send(ctx, mustAction(ActionCancelAll), &CancelAllData{ExpiresAfter: exp, Nonce: n})
}

// SpotTransfer moves spot collateral to another account (destination is checksummed before signing).
func (c *Client) SpotTransfer(ctx context.Context, collateral CollateralID, amount, destination string) (TxResponse, error) {
	return c.transfer(ctx, ActionSpotTransfer, collateral, amount, destination)
}

// DerivativeTransfer moves derivative collateral to another account.
func (c *Client) DerivativeTransfer(ctx context.Context, collateral CollateralID, amount, destination string) (TxResponse, error) {
	return c.transfer(ctx, ActionDerivativeTransfer, collateral, amount, destination)
}

func (c *Client) transfer(ctx context.Context, action string, collateral CollateralID, amount, destination string) (TxResponse, error) {
	op := "exchange " + action
	if err := c.canTrade(op); err != nil {
		return TxResponse{}, err
	}
	if err := checkCollateralAmount(op, collateral, amount); err != nil {
		return TxResponse{}, err
	}
	dest, err := ChecksumAddress(destination)
	if err != nil {
		return TxResponse{}, invalid(op, "destination: %v", err)
	}
	n, _ := c.nonce()
	return c.send(ctx, mustAction(action), &TransferData{CollateralID: collateral, Amount: amount, Destination: dest, Nonce: n})
}

// InternalTransfer moves collateral between the account's own spot and derivatives sides
// (toDerivatives true: spot to derivatives).
func (c *Client) InternalTransfer(ctx context.Context, collateral CollateralID, amount string, toDerivatives bool) (TxResponse, error) {
	op := "exchange " + ActionInternalTransfer
	if err := c.canTrade(op); err != nil {
		return TxResponse{}, err
	}
	if err := checkCollateralAmount(op, collateral, amount); err != nil {
		return TxResponse{}, err
	}
	n, _ := c.nonce()
	return c.send(ctx, mustAction(ActionInternalTransfer), &InternalTransferData{CollateralID: collateral, Amount: amount, ToDerivativesAccount: toDerivatives, Nonce: n})
}

// SpotWithdraw requests a withdrawal of spot collateral to chainID.
func (c *Client) SpotWithdraw(ctx context.Context, collateral CollateralID, amount string, chainID int64) (TxResponse, error) {
	return c.withdraw(ctx, ActionSpotWithdraw, collateral, amount, chainID)
}

// DerivativeWithdraw requests a withdrawal of derivative collateral to chainID.
func (c *Client) DerivativeWithdraw(ctx context.Context, collateral CollateralID, amount string, chainID int64) (TxResponse, error) {
	return c.withdraw(ctx, ActionDerivativeWithdraw, collateral, amount, chainID)
}

func (c *Client) withdraw(ctx context.Context, action string, collateral CollateralID, amount string, chainID int64) (TxResponse, error) {
	op := "exchange " + action
	if err := c.canTrade(op); err != nil {
		return TxResponse{}, err
	}
	if err := checkCollateralAmount(op, collateral, amount); err != nil {
		return TxResponse{}, err
	}
	if chainID <= 0 {
		return TxResponse{}, invalid(op, "chain id %d: want a positive chain id", chainID)
	}
	n, _ := c.nonce()
	return c.send(ctx, mustAction(action), &WithdrawData{CollateralID: collateral, Amount: amount, ChainID: Int(chainID), Nonce: n})
}

func checkCollateralAmount(op string, collateral CollateralID, amount string) error {
	if collateral < 0 {
		return invalid(op, "collateral id %d is negative", collateral)
	}
	if err := positiveDecimal(amount); err != nil {
		return invalid(op, "amount: %v", err)
	}
	return nil
}

func mustAction(name string) ActionInfo {
	a, ok := LookupAction(name)
	if !ok {
		panic("api: unknown action " + name)
	}
	return a
}

// ValidateOrder checks one order before it is signed: side b or s; position side BOTH, LONG or
// SHORT; tif GTC, IOC or FOK; size a positive decimal; price a positive decimal (a market order
// carries its worst price); triggerPx empty or a positive decimal, required with tpsl tp or sl;
// grouping empty, normal or position. Decimals must be plain text such as "50000.5" (no exponent,
// no sign), because that exact text is signed.
func ValidateOrder(o *OrderWire) error {
	if o.InstrumentID < 0 {
		return fmt.Errorf("instrument id %d is negative", o.InstrumentID)
	}
	if o.Side != SideBuy && o.Side != SideSell {
		return fmt.Errorf("side %q: want b (buy) or s (sell)", truncate(o.Side, 20))
	}
	if o.PositionSide != PositionSideBoth && o.PositionSide != PositionSideLong && o.PositionSide != PositionSideShort {
		return fmt.Errorf("position side %q: want BOTH, LONG or SHORT", truncate(o.PositionSide, 20))
	}
	if o.Tif != TifGTC && o.Tif != TifIOC && o.Tif != TifFOK {
		return fmt.Errorf("tif %q: want GTC, IOC or FOK", truncate(o.Tif, 20))
	}
	if err := positiveDecimal(o.Size); err != nil {
		return fmt.Errorf("size: %v", err)
	}
	if err := positiveDecimal(o.Price); err != nil {
		return fmt.Errorf("price: %v", err)
	}
	return validateTrigger(o)
}

func validateTrigger(o *OrderWire) error {
	switch o.Tpsl {
	case "":
	case TpslTakeProfit, TpslStopLoss:
		if o.TriggerPx == "" {
			return fmt.Errorf("tpsl %s needs a trigger price", o.Tpsl)
		}
	default:
		return fmt.Errorf("tpsl %q: want tp, sl or empty", truncate(o.Tpsl, 20))
	}
	if o.TriggerPx != "" {
		if err := positiveDecimal(o.TriggerPx); err != nil {
			return fmt.Errorf("trigger price: %v", err)
		}
	}
	if o.Grouping != "" && o.Grouping != GroupingNormal && o.Grouping != GroupingPosition {
		return fmt.Errorf("grouping %q: want normal, position or empty", truncate(o.Grouping, 20))
	}
	if len(o.Cloid) > 128 {
		return fmt.Errorf("cloid is %d characters: keep it to 128 or fewer", len(o.Cloid))
	}
	return nil
}

// positiveDecimal checks a signed decimal text: digits with at most one point, above zero.
func positiveDecimal(s string) error {
	if s == "" {
		return fmt.Errorf("empty: want a positive decimal such as 0.1")
	}
	if strings.Trim(s, "0123456789.") != "" || strings.Count(s, ".") > 1 || s[0] == '.' || s[len(s)-1] == '.' {
		return fmt.Errorf("%s: want a plain positive decimal such as 0.1 (digits and one point)", text.Quote(s))
	}
	d, err := decimal.NewFromString(s)
	if err != nil || !d.IsPositive() {
		return fmt.Errorf("%s: must be above zero", text.Quote(s))
	}
	return nil
}
