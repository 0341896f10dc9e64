package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// Account actions beyond the spec's table (protocol.md, "Account actions beyond the spec's
// table"): agent wallets, leverage and broker fee approvals.
const (
	ActionAddAgent         = "addAgent"
	ActionRevokeAgent      = "revokeAgent"
	ActionUpdateLeverage   = "updatePerpInstrumentLeverage"
	ActionApproveBrokerFee = "approveBrokerFee"
)

// TxType numbers of the account actions.
const (
	TxAddAgent         uint16 = 1201
	TxUpdateLeverage   uint16 = 1203
	TxApproveBrokerFee uint16 = 1207
	TxRevokeAgent      uint16 = 1211
)

// AgentProofData is what the agent's key signs (as tx type 1201, with the addAgent's nonce) to
// prove it consents to act for the account: {signer: the account's address, nonce}.
type AgentProofData struct {
	Signer string `json:"signer"`
	Nonce  uint64 `json:"nonce"`
}

// AddAgentData is addAgent's action.data: the account registers Agent until ValidUntil (Unix
// ms). Signature is the agent's proof (AgentProofData signed by the agent key); ForAccount is ""
// for the signing account itself.
type AddAgentData struct {
	AgentName  string `json:"agentName"`
	Agent      string `json:"agent"`
	ForAccount string `json:"forAccount"`
	Signature  string `json:"signature"`
	ValidUntil uint64 `json:"validUntil"`
	Nonce      uint64 `json:"nonce"`
}

// RevokeAgentData is revokeAgent's action.data.
type RevokeAgentData struct {
	Agent      string `json:"agent"`
	ForAccount string `json:"forAccount"`
	Nonce      uint64 `json:"nonce"`
}

// UpdateLeverageData is updatePerpInstrumentLeverage's action.data.
type UpdateLeverageData struct {
	InstrumentID InstrumentID  `json:"instrumentId"`
	Leverage     LeverageValue `json:"leverage"`
	Nonce        uint64        `json:"nonce"`
}

// ApproveBrokerFeeData is approveBrokerFee's action.data. A MaxFeeRate of "0" withdraws the
// approval.
type ApproveBrokerFeeData struct {
	Broker     string `json:"broker"`
	MaxFeeRate string `json:"maxFeeRate"`
	Nonce      uint64 `json:"nonce"`
}

// LeverageValue is a whole leverage as it travels: a JSON number (the TypeScript SDK, and what
// tradedesk sends) or a decimal string (the Python SDK). The form is kept, because the signed
// MessagePack differs: an integer for the number, a str for the string.
type LeverageValue struct {
	N      uint64
	Quoted bool
}

// UnmarshalJSON reads a non-negative JSON integer or a string holding one.
func (l *LeverageValue) UnmarshalJSON(b []byte) error {
	s, quoted := string(b), false
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		quoted = true
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || (quoted && s != strconv.FormatUint(n, 10)) {
		return fmt.Errorf("leverage %.20s: want a whole number such as 10 or \"10\"", s)
	}
	*l = LeverageValue{N: n, Quoted: quoted}
	return nil
}

// MarshalJSON writes the leverage in the form it came in.
func (l LeverageValue) MarshalJSON() ([]byte, error) {
	s := strconv.FormatUint(l.N, 10)
	if l.Quoted {
		return []byte(`"` + s + `"`), nil
	}
	return []byte(s), nil
}

// AppendMsgpack appends the agent proof's MessagePack map.
func (d *AgentProofData) AppendMsgpack(b []byte) []byte {
	b = append(b, 0x82)
	b = appendStr(b, "signer")
	b = appendStr(b, d.Signer)
	return appendExpiryNonce(b, 0, d.Nonce)
}

// AppendMsgpack appends the signed MessagePack form of addAgent's data.
func (d *AddAgentData) AppendMsgpack(b []byte) []byte {
	b = append(b, 0x86)
	b = appendStr(b, "agentName")
	b = appendStr(b, d.AgentName)
	b = appendStr(b, "agent")
	b = appendStr(b, d.Agent)
	b = appendStr(b, "forAccount")
	b = appendStr(b, d.ForAccount)
	b = appendStr(b, "signature")
	b = appendStr(b, d.Signature)
	b = appendStr(b, "validUntil")
	b = appendUint(b, d.ValidUntil)
	return appendExpiryNonce(b, 0, d.Nonce)
}

// AppendMsgpack appends the signed MessagePack form of revokeAgent's data.
func (d *RevokeAgentData) AppendMsgpack(b []byte) []byte {
	b = append(b, 0x83)
	b = appendStr(b, "agent")
	b = appendStr(b, d.Agent)
	b = appendStr(b, "forAccount")
	b = appendStr(b, d.ForAccount)
	return appendExpiryNonce(b, 0, d.Nonce)
}

// AppendMsgpack appends the signed MessagePack form of updatePerpInstrumentLeverage's data.
func (d *UpdateLeverageData) AppendMsgpack(b []byte) []byte {
	b = append(b, 0x83)
	b = appendStr(b, "instrumentId")
	b = appendInt(b, int64(d.InstrumentID))
	b = appendStr(b, "leverage")
	if d.Leverage.Quoted {
		b = appendStr(b, strconv.FormatUint(d.Leverage.N, 10))
	} else {
		b = appendUint(b, d.Leverage.N)
	}
	return appendExpiryNonce(b, 0, d.Nonce)
}

// AppendMsgpack appends the signed MessagePack form of approveBrokerFee's data.
func (d *ApproveBrokerFeeData) AppendMsgpack(b []byte) []byte {
	b = append(b, 0x83)
	b = appendStr(b, "broker")
	b = appendStr(b, d.Broker)
	b = appendStr(b, "maxFeeRate")
	b = appendStr(b, d.MaxFeeRate)
	return appendExpiryNonce(b, 0, d.Nonce)
}

// AgentMay reports whether an agent key may sign an action of this tx type for its account:
// orders and cancels only. Money leaving the account, leverage, broker approvals and agent
// management need the account's own key.
func AgentMay(tx uint16) bool {
	switch tx {
	case TxPlaceOrder, TxCancelByOid, TxCancelByCloid, TxCancelByInstrument, TxCancelAll:
		return true
	}
	return false
}

// Agent is one agent wallet registered by an account (the info method allAgents).
type Agent struct {
	User       string `json:"user"`
	Address    string `json:"agent_address"`
	Name       string `json:"agent_name"`
	CreatedAt  Time   `json:"created_at_block_timestamp"`
	ValidUntil Time   `json:"valid_until_timestamp"`
}

// MethodAllAgents is the info method listing an account's agents (camelCase: the only spelling
// the official SDK uses).
const MethodAllAgents = "allAgents"

// decodeAgents reads allAgents' answer: an array, or an object holding one under "agents" or
// "data".
func decodeAgents(raw []byte) ([]Agent, error) {
	raw = bytes.TrimSpace(raw)
	var out []Agent
	if len(raw) > 0 && raw[0] == '{' {
		var w struct {
			Agents json.RawMessage `json:"agents"`
			Data   json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal(raw, &w); err != nil {
			return nil, err
		}
		if raw = w.Agents; raw == nil {
			raw = w.Data
		}
	}
	if len(raw) == 0 || string(raw) == "null" {
		return out, nil
	}
	err := json.Unmarshal(raw, &out)
	return out, err
}
