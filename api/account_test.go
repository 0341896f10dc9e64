package api

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

type accountVectorFile struct {
	PrivateKey      string   `json:"private_key"`
	SignerAddress   string   `json:"signer_address"`
	AgentPrivateKey string   `json:"agent_private_key"`
	AgentAddress    string   `json:"agent_address"`
	Vectors         []vector `json:"vectors"`
}

func loadAccountVectors(t testing.TB) accountVectorFile {
	t.Helper()
	raw, err := os.ReadFile("testdata/signing-vectors-account.json")
	if err != nil {
		t.Fatal(err)
	}
	var vf accountVectorFile
	if err := json.Unmarshal(raw, &vf); err != nil {
		t.Fatal(err)
	}
	if len(vf.Vectors) != 7 {
		t.Fatalf("want 7 account vectors, got %d", len(vf.Vectors))
	}
	return vf
}

// accountVectorData decodes a vector's data: the agent's proof is the one 1201 vector whose data
// is {signer, nonce}.
func accountVectorData(t *testing.T, v vector) ActionData {
	t.Helper()
	if v.Name == "addAgent_agent_proof" {
		d := new(AgentProofData)
		if err := json.Unmarshal(v.Data, d); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return vectorData(t, v)
}

// TestAccountSigningVectors reproduces every SDK-signed account vector byte for byte: MessagePack,
// hash, digest, signature (with the account's or the agent's key), data JSON and request body.
func TestAccountSigningVectors(t *testing.T) {
	vf := loadAccountVectors(t)
	account := testSigner(t, vf.PrivateKey)
	agent := testSigner(t, vf.AgentPrivateKey)
	if account.Address() != vf.SignerAddress || agent.Address() != vf.AgentAddress {
		t.Fatalf("addresses %s %s", account.Address(), agent.Address())
	}
	for _, v := range vf.Vectors {
		t.Run(v.Name, func(t *testing.T) {
			d := accountVectorData(t, v)
			if got := "0x" + hex.EncodeToString(d.AppendMsgpack(nil)); got != v.MsgpackHex {
				t.Fatalf("msgpack\n got %s\nwant %s", got, v.MsgpackHex)
			}
			h := ActionHash(d)
			if got := "0x" + hex.EncodeToString(h[:]); got != v.Hash {
				t.Fatalf("hash %s, want %s", got, v.Hash)
			}
			dg := TypedDataDigest(v.Source, h, v.TxType)
			if got := "0x" + hex.EncodeToString(dg[:]); got != v.Digest {
				t.Fatalf("digest %s, want %s", got, v.Digest)
			}
			s := account
			if v.Address == vf.AgentAddress {
				s = agent
			}
			sig, err := s.SignAction(v.Source, v.TxType, d)
			if err != nil || sig != v.Signature {
				t.Fatalf("signature %s (%v), want %s", sig, err, v.Signature)
			}
			js, _ := json.Marshal(d)
			if string(js) != v.DataJSON {
				t.Fatalf("data JSON\n got %s\nwant %s", js, v.DataJSON)
			}
			nonce, _ := nonceAndExpiry(d)
			// The SDK writes data before type (the client writes type first; JSON order is not signed).
			type sdkAction struct {
				Data ActionData `json:"data"`
				Type string     `json:"type"`
			}
			body, _ := json.Marshal(struct {
				Action    sdkAction `json:"action"`
				Signature string    `json:"signature"`
				Nonce     uint64    `json:"nonce"`
			}{sdkAction{d, strconv.Itoa(int(v.TxType))}, sig, nonce})
			if string(body) != v.RequestBody {
				t.Fatalf("body\n got %s\nwant %s", body, v.RequestBody)
			}
			if v.Name == "addAgent_agent_proof" {
				return // not a request of its own: it travels inside addAgent
			}
			req, err := DecodeSignedRequest([]byte(v.RequestBody), v.Source)
			if err != nil || req.Signer != v.Address || req.TxType != v.TxType {
				t.Fatalf("decoded %+v (%v)", req, err)
			}
		})
	}
}

// TestAddAgentProofInsideVector: the proof carried by the addAgent vector recovers to the agent
// for {signer: account, nonce: the action's nonce}, and to someone else for any other account.
func TestAddAgentProofInsideVector(t *testing.T) {
	vf := loadAccountVectors(t)
	var d AddAgentData
	for _, v := range vf.Vectors {
		if v.Name == "addAgent" {
			if err := json.Unmarshal(v.Data, &d); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := RecoverActionSigner(SourceMainnet, TxAddAgent, &AgentProofData{Signer: vf.SignerAddress, Nonce: d.Nonce}, d.Signature)
	if err != nil || got != d.Agent {
		t.Fatalf("proof recovers %s (%v), want %s", got, err, d.Agent)
	}
	other, _ := RecoverActionSigner(SourceMainnet, TxAddAgent, &AgentProofData{Signer: vf.AgentAddress, Nonce: d.Nonce}, d.Signature)
	if other == d.Agent {
		t.Fatal("the proof verified for another account")
	}
}

// TestLeverageBothSpellings: the number and the string keep their own form through JSON and
// MessagePack (guards a decoder that turns "5" into 5, which would change the signed bytes).
func TestLeverageBothSpellings(t *testing.T) {
	for _, c := range []struct{ in, mp string }{{`10`, "0a"}, {`"5"`, "a135"}, {`200`, "ccc8"}} {
		var l LeverageValue
		if err := json.Unmarshal([]byte(c.in), &l); err != nil {
			t.Fatal(err)
		}
		d := &UpdateLeverageData{InstrumentID: 1, Leverage: l, Nonce: 1}
		mp := hex.EncodeToString(d.AppendMsgpack(nil))
		if !strings.Contains(mp, "6c657665726167"+"65"+c.mp) {
			t.Errorf("%s: msgpack %s lacks leverage %s", c.in, mp, c.mp)
		}
		if out, _ := json.Marshal(l); string(out) != c.in {
			t.Errorf("%s round-trips as %s", c.in, out)
		}
	}
	for _, bad := range []string{`-1`, `2.5`, `"2.5"`, `"05"`, `"x"`, `true`, `1e3`} {
		var l LeverageValue
		if err := json.Unmarshal([]byte(bad), &l); err == nil {
			t.Errorf("%s accepted as %+v", bad, l)
		}
	}
}

// TestAgentSigner: an agent signer signs with its own key, acts for (and shows) the account, and
// prints no key.
func TestAgentSigner(t *testing.T) {
	vf := loadAccountVectors(t)
	agentKey := testSigner(t, vf.AgentPrivateKey)
	s, err := agentKey.AsAgentFor(strings.ToLower(vf.SignerAddress))
	if err != nil {
		t.Fatal(err)
	}
	if !s.IsAgent() || s.Account() != vf.SignerAddress || s.Address() != vf.AgentAddress {
		t.Fatalf("agent signer %v: account %s address %s", s, s.Account(), s.Address())
	}
	c := New("http://127.0.0.1:1/", WithSigner(s))
	if c.Address() != vf.SignerAddress || !c.IsAgent() {
		t.Fatalf("client acts for %s", c.Address())
	}
	if _, err := agentKey.AsAgentFor(vf.AgentAddress); err == nil {
		t.Fatal("an agent acting for itself was accepted")
	}
	for _, f := range []string{"%v", "%+v", "%#v", "%s", "%x"} {
		out := strings.ToLower(fmtSprintf(f, s) + fmtSprintf(f, c))
		if strings.Contains(out, strings.TrimPrefix(vf.AgentPrivateKey, "0x")) {
			t.Fatalf("%s shows the agent key", f)
		}
	}
}

var fmtSprintf = fmt.Sprintf

// TestAgentClientRefusesMoneyOut: an agent client refuses withdrawals, transfers, leverage,
// broker approvals and agent management before signing (the address is unreachable: a request
// that was sent would fail as a network error, not KindInvalid). Guards a dropped agentRefusal.
func TestAgentClientRefusesMoneyOut(t *testing.T) {
	vf := loadAccountVectors(t)
	s, _ := testSigner(t, vf.AgentPrivateKey).AsAgentFor(vf.SignerAddress)
	c := New("http://127.0.0.1:1/", WithSigner(s), WithRetry(RetryPolicy{Attempts: 1}))
	ctx := context.Background()
	calls := map[string]func() error{
		"withdraw": func() error { _, err := c.DerivativeWithdraw(ctx, 1, "1", 1); return err },
		"transfer": func() error { _, err := c.SpotTransfer(ctx, 1, "1", vf.AgentAddress); return err },
		"internal": func() error { _, err := c.InternalTransfer(ctx, 1, "1", true); return err },
		"leverage": func() error { _, err := c.UpdateLeverage(ctx, 1, 5); return err },
		"broker":   func() error { _, err := c.ApproveBrokerFee(ctx, vf.AgentAddress, "0.001"); return err },
		"revoke":   func() error { _, err := c.RevokeAgent(ctx, vf.AgentAddress); return err },
	}
	for name, call := range calls {
		err := call()
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindInvalid || !strings.Contains(err.Error(), "account's own key") {
			t.Errorf("%s: %v, want a refusal before signing", name, err)
		}
	}
	_, err := c.CancelAll(ctx)
	var e *Error
	if !errors.As(err, &e) || e.Kind == KindInvalid {
		t.Errorf("cancel-all by an agent was refused before sending: %v", err)
	}
}
