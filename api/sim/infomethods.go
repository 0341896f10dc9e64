package sim

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tradedesk/tradedesk/api"
)

// The /info methods and their params, read strictly (protocol.md, "/info beyond the spec's
// table"). Every method answers to the spec's snake_case name and to the camelCase name the
// TypeScript SDK on npm sends (accountSummary, openOrders, userFees, ...); every param to the
// spellings the SDKs send (instrumentId and instrument_id). A param is read only as its own JSON
// type (a number where a number is due, a string where a string is), null counts as absent (the
// Python SDK sends its unset optionals as null), and a key the method does not take, or a param
// sent under both spellings, is refused with the list of what the method takes.

// Param kinds.
const (
	pString  = iota // a JSON string
	pInt            // a JSON integer (no quotes, fraction or exponent)
	pIDText         // an instrument or collateral id: a JSON integer or a string (kept as text)
	pBool           // true or false
	pAddress        // a 0x address, as a string (checked where it is used)
)

// infoParam is one param of a method: its spellings, its kind, and where it goes.
type infoParam struct {
	names []string
	kind  int
	field func(p *infoParams) any // *string, *flexString, *api.Int or *bool
}

// infoMethod is one /info method: its spec name, its camelCase alias, its handler and params.
type infoMethod struct {
	name   string
	alias  string
	h      infoHandler
	params []infoParam
}

// The params, one value each, shared by the methods that take them.
var (
	prUser   = infoParam{[]string{"user"}, pAddress, func(p *infoParams) any { return &p.User }}
	prBroker = infoParam{[]string{"broker"}, pAddress, func(p *infoParams) any { return &p.Broker }}
	prType   = infoParam{[]string{"type"}, pString, func(p *infoParams) any { return &p.Type }}
	prSymbol = infoParam{[]string{"symbol"}, pString, func(p *infoParams) any { return &p.Symbol }}
	prPage   = infoParam{[]string{"page"}, pInt, func(p *infoParams) any { return &p.Page }}
	prLimit  = infoParam{[]string{"limit"}, pInt, func(p *infoParams) any { return &p.Limit }}
	prDepth  = infoParam{[]string{"depth"}, pInt, func(p *infoParams) any { return &p.Depth }}
	prFrom   = infoParam{[]string{"from"}, pInt, func(p *infoParams) any { return &p.From }}
	prTo     = infoParam{[]string{"to"}, pInt, func(p *infoParams) any { return &p.To }}
	prChart  = infoParam{[]string{"chart_type"}, pString, func(p *infoParams) any { return &p.ChartType }}
	prRes    = infoParam{[]string{"resolution"}, pString, func(p *infoParams) any { return &p.Resolution }}
	// chart's instrument (a number in the SDKs, the spec sends symbol).
	prChartID = infoParam{[]string{"instrument_id", "instrumentId"}, pIDText, func(p *infoParams) any { return &p.InstrumentID }}
	// the instrument filter of order_history and fills (a string of the id in both SDKs).
	prFilterID   = infoParam{[]string{"instrumentId", "instrument_id"}, pIDText, func(p *infoParams) any { return &p.FilterID }}
	prInstrument = infoParam{[]string{"instrument"}, pString, func(p *infoParams) any { return &p.Instrument }}
	prVault      = infoParam{[]string{"vaultAddress", "vault_address"}, pAddress, func(p *infoParams) any { return &p.Vault }}
	prCollID     = infoParam{[]string{"collateralId", "collateralID", "collateral_id"}, pIDText, func(p *infoParams) any { return &p.CollateralID }}
	prHistory    = infoParam{[]string{"includeHistory", "include_history"}, pBool, func(p *infoParams) any { return &p.IncludeHistory }}
)

// infoTable lists every method, in the order the unknown-method error names them.
var infoTable []infoMethod

// infoByName finds a method by either of its names.
var infoByName map[string]*infoMethod

func init() {
	paged := []infoParam{prUser, prPage, prLimit}
	infoTable = []infoMethod{
		{"account_summary", "accountSummary", (*Sim).infoSummary, []infoParam{prUser}},
		{"positions", "", (*Sim).infoPositions, []infoParam{prUser, prInstrument}},
		{"open_orders", "openOrders", (*Sim).infoOpenOrders, paged},
		{"order_history", "orderHistory", (*Sim).infoHistory, []infoParam{prUser, prFilterID, prPage, prLimit}},
		{"fills", "", (*Sim).infoFills, []infoParam{prUser, prFilterID, prPage, prLimit}},
		{"funding_history", "fundingHistory", (*Sim).infoFunding, paged},
		{"transfer_history", "transferHistory", (*Sim).infoTransfers, paged},
		{"account_history", "accountHistory", (*Sim).infoAccountHistory, []infoParam{prUser, prLimit}},
		{"user_fees", "userFees", (*Sim).infoUserFees, []infoParam{prUser}},
		{"instrument_leverage", "instrumentLeverage", (*Sim).infoLeverage, []infoParam{prUser, prSymbol}},
		{"brokers_check", "brokersCheck", (*Sim).infoBrokers, []infoParam{prUser, prBroker, prPage, prLimit}},
		{"all_agents", "allAgents", (*Sim).infoAgents, []infoParam{prUser}},
		{"referral_summary", "referralSummary", (*Sim).infoReferral, []infoParam{prUser}},
		{"account_info", "accountInfo", (*Sim).infoAccountInfo, []infoParam{prUser, prCollID, prHistory}},
		{"instruments", "", (*Sim).infoInstruments, []infoParam{prType}},
		{"supported_collateral", "supportedCollateral", (*Sim).infoCollateral, []infoParam{prSymbol}},
		{"ticker", "", (*Sim).infoTicker, []infoParam{prSymbol}},
		{"mids", "", (*Sim).infoMids, []infoParam{prSymbol}},
		{"bbo", "", (*Sim).infoBBO, []infoParam{prSymbol}},
		{"oracle", "", (*Sim).infoOracle, []infoParam{prSymbol}},
		{"orderbook", "", (*Sim).infoBook, []infoParam{prSymbol, prDepth}},
		{"trades", "", (*Sim).infoTrades, []infoParam{prSymbol, prLimit}},
		{"chart", "", (*Sim).infoChart, []infoParam{prSymbol, prChartID, prChart, prRes, prFrom, prTo}},
		{"vaults", "", (*Sim).infoVaults, nil},
		{"sub_vaults", "subVaults", (*Sim).infoVaults, []infoParam{prVault}},
		{"vault_balance", "vaultBalance", (*Sim).infoVaultBalance, []infoParam{prVault, prUser}},
		{"exchange_accounts", "exchangeAccounts", (*Sim).infoExchangeAccounts, nil},
	}
	infoByName = map[string]*infoMethod{}
	for i := range infoTable {
		m := &infoTable[i]
		infoByName[m.name] = m
		if m.alias != "" {
			infoByName[m.alias] = m
		}
	}
}

// methodList names every method the simulator answers, each with its camelCase alias.
func methodList() string {
	names := make([]string, len(infoTable))
	for i, m := range infoTable {
		names[i] = m.name
		if m.alias != "" {
			names[i] += " (" + m.alias + ")"
		}
	}
	return strings.Join(names, ", ")
}

// readParams reads a method's params from the body's params object into p.
func (m *infoMethod) readParams(params *jnode, p *infoParams) error {
	if params == nil || params.kind == 'z' {
		return nil
	}
	if params.kind != 'o' {
		return badRequest("%s params is %s: send an object", m.name, params.kindName())
	}
	for _, k := range params.keys {
		if m.param(k) == nil {
			return badRequest("%s params has the key %q, which this method does not take: send only %s", m.name, trunc(k, 40), m.paramNames())
		}
	}
	for _, pr := range m.params {
		v, name, err := pr.pick(params)
		if err != nil {
			return err
		}
		if v == nil {
			continue
		}
		if err := pr.set(v, m.name+" params."+name, p); err != nil {
			return err
		}
	}
	return nil
}

// param finds the param a key spells, or nil.
func (m *infoMethod) param(key string) *infoParam {
	for i := range m.params {
		for _, n := range m.params[i].names {
			if n == key {
				return &m.params[i]
			}
		}
	}
	return nil
}

func (m *infoMethod) paramNames() string {
	if len(m.params) == 0 {
		return "no params ({})"
	}
	var names []string
	for _, p := range m.params {
		names = append(names, strings.Join(p.names, " or "))
	}
	return strings.Join(names, ", ")
}

// pick returns the param's value (nil when absent or null) and the spelling it came under; a
// param sent under two spellings is refused, as a key sent twice is.
func (pr *infoParam) pick(params *jnode) (*jnode, string, error) {
	var got *jnode
	var name string
	for _, n := range pr.names {
		v := params.get(n)
		if v == nil || v.kind == 'z' {
			continue
		}
		if got != nil {
			return nil, "", badRequest("params has both %s and %s: they are one param, send one of them", name, n)
		}
		got, name = v, n
	}
	return got, name, nil
}

// set reads v as the param's kind into its field.
func (pr *infoParam) set(v *jnode, path string, p *infoParams) error {
	switch dst := pr.field(p).(type) {
	case *api.Int:
		n, err := infoInt(v, path)
		*dst = api.Int(n)
		return err
	case *bool:
		if v.kind != 'b' {
			return badRequest("%s is %s: send true or false", path, v.kindName())
		}
		*dst = v.b
		return nil
	case *flexString:
		s, err := pr.text(v, path)
		*dst = flexString(s)
		return err
	case *string:
		s, err := pr.text(v, path)
		*dst = s
		return err
	}
	return fmt.Errorf("%s: no field of a known type", path)
}

// text reads a string param, or an id given as a JSON integer.
func (pr *infoParam) text(v *jnode, path string) (string, error) {
	if pr.kind == pIDText && v.kind == 'n' {
		n, err := infoInt(v, path)
		if err == nil && n < 0 {
			err = badRequest("%s %d: an id is not negative", path, n)
		}
		return strconv.FormatInt(n, 10), err
	}
	if v.kind != 's' {
		want := "a string"
		if pr.kind == pIDText {
			want = "the id as a JSON integer or a string"
		}
		return "", badRequest("%s is %s: send %s", path, v.kindName(), want)
	}
	if len(v.text) > 200 {
		return "", badRequest("%s is %d characters long: no such name or address is over 200", path, len(v.text))
	}
	return v.text, nil
}

// infoInt reads a JSON integer that fits 64 bits (signs allowed: the handlers say what range
// they take).
func infoInt(v *jnode, path string) (int64, error) {
	if v.kind != 'n' {
		return 0, badRequest("%s is %s: send a JSON integer, without quotes", path, v.kindName())
	}
	if len(v.text) > maxIntLen+1 {
		return 0, badRequest("%s %s… has more than %d digits: send an integer that fits 64 bits", path, trunc(v.text, 20), maxIntLen)
	}
	n, err := strconv.ParseInt(v.text, 10, 64)
	if err != nil {
		return 0, badRequest("%s %s is not an integer of at most 64 bits: send a JSON integer without fraction or exponent", path, trunc(v.text, 24))
	}
	return n, nil
}
