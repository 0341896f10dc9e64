package funds

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
	"github.com/tradedesk/tradedesk/api/text"
)

// maxAmountLen bounds the typed amount so a pasted blob is refused before it is parsed.
const maxAmountLen = 40

func findCollateral(name string, all []api.Collateral) (api.Collateral, *FieldError) {
	name = strings.TrimSpace(name)
	if len(all) == 0 {
		return api.Collateral{}, &FieldError{Field: FieldCollateral,
			Msg: "the supported collateral has not loaded yet: wait for it or refresh"}
	}
	if name == "" {
		return api.Collateral{}, &FieldError{Field: FieldCollateral,
			Msg: "choose a collateral: " + symbols(all)}
	}
	for _, c := range all {
		if strings.EqualFold(c.Symbol, name) || strconv.FormatInt(int64(c.ID), 10) == name {
			return c, nil
		}
	}
	return api.Collateral{}, &FieldError{Field: FieldCollateral,
		Msg: fmt.Sprintf("unknown collateral %s: choose one of %s", text.Quote(name), symbols(all))}
}

// notANumber says an amount is not a number, naming it only in brief (text.Quote): a key pasted
// into the field is not repeated.
func notANumber(s string) string {
	return fmt.Sprintf("amount %s is not a number: type digits with an optional decimal point, e.g. 25.5", text.Quote(s))
}

func symbols(all []api.Collateral) string {
	s := make([]string, len(all))
	for i, c := range all {
		s[i] = c.Symbol
	}
	return strings.Join(s, ", ")
}

// AmountForm reads an amount as typed, before any collateral is known: an error when it is not a
// positive number (empty, too long, not digits, negative, zero). A command line reports these as
// usage errors; checkAmount reports them too.
func AmountForm(text string) (decimal.Decimal, *FieldError) {
	text = strings.TrimSpace(text)
	fe := func(msg string) *FieldError { return &FieldError{Field: FieldAmount, Msg: msg} }
	switch {
	case text == "":
		return decimal.Zero, fe("enter an amount")
	case len(text) > maxAmountLen:
		return decimal.Zero, fe(fmt.Sprintf("amount is too long (at most %d characters)", maxAmountLen))
	case strings.ContainsAny(text, "eE_ ,"):
		return decimal.Zero, fe(notANumber(text))
	}
	v, err := decimal.NewFromString(text)
	if err != nil {
		return decimal.Zero, fe(notANumber(text))
	}
	switch {
	case v.IsNegative():
		return decimal.Zero, fe(fmt.Sprintf("amount cannot be negative (%s): type the amount to move, e.g. %s", text, v.Neg()))
	case v.IsZero():
		return decimal.Zero, fe("amount must be more than 0")
	}
	return v, nil
}

func checkAmount(text string, coll api.Collateral) (decimal.Decimal, *FieldError) {
	if strings.TrimSpace(text) == "" {
		return decimal.Zero, &FieldError{Field: FieldAmount, Msg: "enter an amount of " + coll.Symbol}
	}
	v, fe := AmountForm(text)
	if fe != nil {
		return v, fe
	}
	text = strings.TrimSpace(text)
	places := int32(coll.Decimals)
	if -v.Exponent() > places && !v.Equal(v.Truncate(places)) {
		return decimal.Zero, &FieldError{Field: FieldAmount, Suggest: v.Truncate(places).String(), Msg: fmt.Sprintf(
			"%s takes at most %d decimals: %s has %d", coll.Symbol, places, text, decimalsOf(v))}
	}
	return v.Truncate(places), nil
}

// decimalsOf counts the significant decimals of v (trailing zeros do not count).
func decimalsOf(v decimal.Decimal) int {
	s := v.String()
	_, frac, ok := strings.Cut(s, ".")
	if !ok {
		return 0
	}
	return len(strings.TrimRight(frac, "0"))
}

// checkDestination checks a destination address and returns it EIP-55 checksummed.
func checkDestination(text, self string) (string, *FieldError) {
	addr, err := checkAddress(text)
	if err != nil {
		return "", &FieldError{Field: FieldDestination, Msg: err.Error()}
	}
	switch {
	case addr == (common.Address{}).Hex():
		return "", &FieldError{Field: FieldDestination,
			Msg: "destination is the zero address: collateral sent there is lost; paste the receiving account's address"}
	case strings.EqualFold(addr, self):
		return "", &FieldError{Field: FieldDestination,
			Msg: "destination is this account: use the spot to derivative (or back) transfer to move between your own sides"}
	}
	return addr, nil
}

// checkAddress is api.ChecksumAddress with two plainer messages first: for an empty field and for
// the position of a character that is not hex.
func checkAddress(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", fmt.Errorf("enter an address: 0x followed by 40 hex digits")
	}
	if len(s) == 42 && (strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X")) {
		for i, r := range s[2:] {
			if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
				return "", fmt.Errorf("address has %q at position %d, which is not a hex digit (0-9, a-f)", r, i+3)
			}
		}
	}
	return api.ChecksumAddress(s)
}

func checkChain(coll api.Collateral, chain int64) (api.Bridge, *FieldError) {
	enabled := enabledChains(coll)
	fe := func(msg string) *FieldError { return &FieldError{Field: FieldChain, Msg: msg} }
	if len(enabled) == 0 {
		return api.Bridge{}, fe(coll.Symbol + " cannot be withdrawn now: none of its chains is enabled")
	}
	choose := "choose " + chainList(enabled)
	if chain == 0 {
		return api.Bridge{}, fe("choose a chain to withdraw " + coll.Symbol + " to: " + chainList(enabled))
	}
	for _, b := range coll.BridgeByChain {
		if int64(b.BridgeChainID) != chain {
			continue
		}
		if !b.Enabled {
			return api.Bridge{}, fe(fmt.Sprintf("withdrawals of %s to %s are disabled: %s", coll.Symbol, ChainName(chain), choose))
		}
		return b, nil
	}
	return api.Bridge{}, fe(fmt.Sprintf("%s has no bridge to %s: %s", coll.Symbol, ChainName(chain), choose))
}

// EnabledChains returns the chains a collateral can be withdrawn to, in the exchange's order.
func EnabledChains(coll api.Collateral) []int64 { return enabledChains(coll) }

func enabledChains(coll api.Collateral) []int64 {
	var out []int64
	for _, b := range coll.BridgeByChain {
		if b.Enabled {
			out = append(out, int64(b.BridgeChainID))
		}
	}
	return out
}

func chainList(ids []int64) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = ChainName(id)
	}
	return strings.Join(s, ", ")
}

// chainNames are the names of well-known EVM chains by id.
var chainNames = map[int64]string{
	1: "Ethereum", 10: "Optimism", 56: "BNB Chain", 137: "Polygon", 8453: "Base",
	42161: "Arbitrum", 43114: "Avalanche", 11155111: "Sepolia", 421614: "Arbitrum Sepolia",
}

// ChainName is a chain's name with its id ("Arbitrum (42161)"), or "chain N" when unknown.
func ChainName(id int64) string {
	if n, ok := chainNames[id]; ok {
		return fmt.Sprintf("%s (%d)", n, id)
	}
	return fmt.Sprintf("chain %d", id)
}

// ParseChain reads a chain typed as its id ("42161") or name ("arbitrum", case-insensitive).
func ParseChain(s string) (int64, error) {
	s = strings.TrimSpace(s)
	if id, err := strconv.ParseInt(s, 10, 64); err == nil && id > 0 {
		return id, nil
	}
	for id, n := range chainNames {
		if strings.EqualFold(n, s) {
			return id, nil
		}
	}
	names := make([]string, 0, len(chainNames))
	for _, n := range chainNames {
		names = append(names, strings.ToLower(n))
	}
	sort.Strings(names)
	return 0, fmt.Errorf("unknown chain %s: give a chain id (e.g. 42161) or one of %s", text.Quote(s), strings.Join(names, ", "))
}
