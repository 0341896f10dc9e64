package funds

import (
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"github.com/tradedesk/tradedesk/api"
)

func d(s string) decimal.Decimal { return decimal.RequireFromString(s) }

const (
	self  = "0x1111111111111111111111111111111111111111"
	dest  = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed" // EIP-55's own example
	lower = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
)

func collaterals() []api.Collateral {
	return []api.Collateral{
		{ID: 1, Symbol: "USDC", Decimals: 6, WithdrawalFee: d("1"), TransferNotionalFee: d("0"),
			BridgeByChain: []api.Bridge{
				{BridgeChainID: 1, Enabled: true}, {BridgeChainID: 42161, Enabled: true}, {BridgeChainID: 56, Enabled: false}}},
		{ID: 2, Symbol: "USDT", Decimals: 6, WithdrawalFee: d("1.5"), TransferNotionalFee: d("0.0005"),
			BridgeByChain: []api.Bridge{{BridgeChainID: 1, Enabled: true}}},
		{ID: 3, Symbol: "WETH", Decimals: 18, WithdrawalFee: d("0.0005"),
			BridgeByChain: []api.Bridge{{BridgeChainID: 1, Enabled: false}}},
	}
}

func balances() Balances {
	return Balances{
		Account: self,
		Spot: map[string]api.CollateralBalance{
			"USDC": {Balance: d("500"), WithdrawableBalance: d("400")},
			"USDT": {Balance: d("100"), WithdrawableBalance: d("100")},
			"WETH": {Balance: d("1"), WithdrawableBalance: d("1")},
		},
		Derivative: map[string]api.CollateralBalance{
			"USDC": {Balance: d("2000"), WithdrawableBalance: d("1500.25")},
		},
	}
}

// TestCheckErrors is the validation table: each bad request with its exact message.
func TestCheckErrors(t *testing.T) {
	cases := []struct {
		name    string
		req     Request
		field   string
		msg     string
		suggest string
	}{
		{"bad address: short", Request{Op: SpotTransfer, Collateral: "USDC", Amount: "10", Destination: "0x1234"},
			FieldDestination, `address "0x1234" must have 40 hex digits after 0x, has 4`, ""},
		{"bad address: no 0x", Request{Op: SpotTransfer, Collateral: "USDC", Amount: "10", Destination: lower[2:]},
			FieldDestination, `address "5aae…eaed" must start with 0x` /* a long hex value is named by its ends only */, ""},
		{"bad address: not hex", Request{Op: DerivativeTransfer, Collateral: "USDC", Amount: "10", Destination: "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaeg"},
			FieldDestination, "address has 'g' at position 42, which is not a hex digit (0-9, a-f)", ""},
		{"bad address: empty", Request{Op: SpotTransfer, Collateral: "USDC", Amount: "10"},
			FieldDestination, "enter an address: 0x followed by 40 hex digits", ""},
		{"bad checksum", Request{Op: SpotTransfer, Collateral: "USDC", Amount: "10", Destination: "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"},
			FieldDestination, "address 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD has a bad EIP-55 checksum: check it for typos (or write it all in lower case)", ""},
		{"zero address", Request{Op: SpotTransfer, Collateral: "USDC", Amount: "10", Destination: "0x0000000000000000000000000000000000000000"},
			FieldDestination, "destination is the zero address: collateral sent there is lost; paste the receiving account's address", ""},
		{"own address", Request{Op: SpotTransfer, Collateral: "USDC", Amount: "10", Destination: self},
			FieldDestination, "destination is this account: use the spot to derivative (or back) transfer to move between your own sides", ""},
		{"zero", Request{Op: ToDerivative, Collateral: "USDC", Amount: "0"},
			FieldAmount, "amount must be more than 0", ""},
		{"zero with decimals", Request{Op: ToDerivative, Collateral: "USDC", Amount: "0.000"},
			FieldAmount, "amount must be more than 0", ""},
		{"negative", Request{Op: ToSpot, Collateral: "USDC", Amount: "-5"},
			FieldAmount, "amount cannot be negative (-5): type the amount to move, e.g. 5", ""},
		{"not a number", Request{Op: ToSpot, Collateral: "USDC", Amount: "ten"},
			FieldAmount, `amount "ten" is not a number: type digits with an optional decimal point, e.g. 25.5`, ""},
		{"exponent", Request{Op: ToSpot, Collateral: "USDC", Amount: "1e3"},
			FieldAmount, `amount "1e3" is not a number: type digits with an optional decimal point, e.g. 25.5`, ""},
		{"empty amount", Request{Op: ToSpot, Collateral: "USDC"},
			FieldAmount, "enter an amount of USDC", ""},
		{"too many decimals", Request{Op: ToDerivative, Collateral: "USDC", Amount: "1.1234567"},
			FieldAmount, "USDC takes at most 6 decimals: 1.1234567 has 7", "1.123456"},
		{"more than withdrawable", Request{Op: ToSpot, Collateral: "USDC", Amount: "1500.26"},
			FieldAmount, "1,500.26 USDC is more than the 1,500.25 USDC withdrawable from derivative", "1500.25"},
		{"more than withdrawable with the fee", Request{Op: DerivativeWithdraw, Collateral: "USDC", Amount: "1500", Chain: 1},
			FieldAmount, "1,500.00 USDC plus the 1.00 USDC fee is more than the 1,500.25 USDC withdrawable from derivative", "1499.25"},
		{"more than withdrawable with a rate fee", Request{Op: SpotTransfer, Collateral: "USDT", Amount: "100", Destination: dest},
			FieldAmount, "100.00 USDT plus the 0.05 USDT fee is more than the 100.00 USDT withdrawable from spot", "99.95"},
		// QA item 10: a shortfall too small to see at 2 decimals is written in full.
		{"more than withdrawable by less than a cent", Request{Op: ToSpot, Collateral: "USDC", Amount: "1500.251"},
			FieldAmount, "1,500.251 USDC is more than the 1,500.25 USDC withdrawable from derivative", "1500.25"},
		{"more than withdrawable, none held", Request{Op: DerivativeTransfer, Collateral: "USDT", Amount: "1", Destination: dest},
			FieldAmount, "1.00 USDT plus the <0.01 USDT fee is more than the 0.00 USDT withdrawable from derivative", ""},
		{"disabled chain", Request{Op: SpotWithdraw, Collateral: "USDC", Amount: "10", Chain: 56},
			FieldChain, "withdrawals of USDC to BNB Chain (56) are disabled: choose Ethereum (1), Arbitrum (42161)", ""},
		{"chain without bridge", Request{Op: SpotWithdraw, Collateral: "USDC", Amount: "10", Chain: 10},
			FieldChain, "USDC has no bridge to Optimism (10): choose Ethereum (1), Arbitrum (42161)", ""},
		{"no chain chosen", Request{Op: SpotWithdraw, Collateral: "USDC", Amount: "10"},
			FieldChain, "choose a chain to withdraw USDC to: Ethereum (1), Arbitrum (42161)", ""},
		{"no chain enabled", Request{Op: SpotWithdraw, Collateral: "WETH", Amount: "0.1", Chain: 1},
			FieldChain, "WETH cannot be withdrawn now: none of its chains is enabled", ""},
		{"unknown collateral", Request{Op: ToSpot, Collateral: "DOGE", Amount: "1"},
			FieldCollateral, `unknown collateral "DOGE": choose one of USDC, USDT, WETH`, ""},
		{"no collateral", Request{Op: ToSpot, Amount: "1"},
			FieldCollateral, "choose a collateral: USDC, USDT, WETH", ""},
		{"unknown op", Request{Op: Op(42), Collateral: "USDC", Amount: "1"},
			FieldOp, "unknown movement 42", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errs := Check(c.req, collaterals(), balances())
			if len(errs) != 1 {
				t.Fatalf("got %d errors %v, want exactly one", len(errs), errs)
			}
			e := errs[0]
			if e.Field != c.field || e.Msg != c.msg || e.Suggest != c.suggest {
				t.Errorf("got {%s %q suggest %q}\nwant {%s %q suggest %q}", e.Field, e.Msg, e.Suggest, c.field, c.msg, c.suggest)
			}
		})
	}
}

func TestCheckCollectsEveryProblem(t *testing.T) {
	_, errs := Check(Request{Op: SpotTransfer, Collateral: "USDC", Amount: "-1", Destination: "0x12"}, collaterals(), balances())
	if len(errs) != 2 || errs[0].Field != FieldDestination || errs[1].Field != FieldAmount {
		t.Fatalf("want a destination and an amount error, got %v", errs)
	}
	if err := Errors(errs); err == nil || !strings.Contains(err.Error(), "destination: ") || !strings.Contains(err.Error(), "amount: ") {
		t.Fatalf("Errors joined badly: %v", err)
	}
	if Errors(nil) != nil {
		t.Fatal("Errors(nil) must be nil")
	}
}

func TestCheckNotLoaded(t *testing.T) {
	_, errs := Check(Request{Op: ToSpot, Collateral: "USDC", Amount: "1"}, nil, balances())
	if len(errs) != 1 || errs[0].Msg != "the supported collateral has not loaded yet: wait for it or refresh" {
		t.Fatalf("got %v", errs)
	}
}

func TestCheckGood(t *testing.T) {
	cases := []struct {
		name              string
		req               Request
		amount, fee, recv string
		withdrawable      string
		dest              string
		chain             int64
	}{
		{"spot transfer, lower-case address gets its checksum", Request{Op: SpotTransfer, Collateral: "usdc", Amount: "12.5", Destination: lower},
			"12.5", "0", "12.5", "400", dest, 0},
		{"transfer fee is a rate of the amount, on top", Request{Op: SpotTransfer, Collateral: "USDT", Amount: "99.95", Destination: dest},
			"99.95", "0.049975", "99.95", "100", dest, 0},
		{"withdrawal fee is flat, on top", Request{Op: DerivativeWithdraw, Collateral: "1", Amount: "1499.25", Chain: 42161},
			"1499.25", "1", "1499.25", "1500.25", "", 42161},
		{"internal move, trailing zeros beyond the decimals are fine", Request{Op: ToDerivative, Collateral: "USDC", Amount: "400.0000000"},
			"400", "0", "400", "400", "", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, errs := Check(c.req, collaterals(), balances())
			if len(errs) != 0 {
				t.Fatalf("unexpected errors %v", errs)
			}
			if got.AmountText() != c.amount || got.Fee.String() != c.fee || got.Receive().String() != c.recv ||
				got.Withdrawable.String() != c.withdrawable || got.Destination != c.dest || int64(got.Bridge.BridgeChainID) != c.chain {
				t.Errorf("got amount %s fee %s receive %s withdrawable %s dest %q chain %d", got.AmountText(), got.Fee,
					got.Receive(), got.Withdrawable, got.Destination, got.Bridge.BridgeChainID)
			}
		})
	}
}

func TestConfirmShowsFullAddressAndFee(t *testing.T) {
	c, errs := Check(Request{Op: SpotTransfer, Collateral: "USDT", Amount: "50", Destination: lower}, collaterals(), balances())
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	want := []string{"Spot transfer: 50.00 USDT", "from your spot balance to", "  " + dest, "fee 0.025 USDT on top: 50.025 USDT leaves, 50.00 USDT arrives"}
	if got := c.Confirm(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("confirm:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	w, _ := Check(Request{Op: SpotWithdraw, Collateral: "USDC", Amount: "10", Chain: 42161}, collaterals(), balances())
	if got := strings.Join(w.Confirm(), "\n"); !strings.Contains(got, "to your address\n  "+self+"\non Arbitrum (42161)") || !strings.Contains(got, "fee 1.00 USDC on top: 11.00 USDC leaves, 10.00 USDC arrives") {
		t.Fatalf("withdraw confirm:\n%s", got)
	}
}

func TestCheckAddress(t *testing.T) {
	// EIP-55's test vectors.
	for _, a := range []string{
		"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
		"0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
	} {
		got, err := checkAddress(strings.ToLower(a))
		if err != nil || got != a {
			t.Errorf("checkAddress(lower %s) = %s, %v", a, got, err)
		}
		if got, err := checkAddress(a); err != nil || got != a {
			t.Errorf("checkAddress(%s) = %s, %v", a, got, err)
		}
	}
	if _, err := checkAddress("0X5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED"); err != nil {
		t.Errorf("all upper case carries no checksum and must pass: %v", err)
	}
}

func TestParseChain(t *testing.T) {
	for in, want := range map[string]int64{"42161": 42161, "arbitrum": 42161, " Base ": 8453, "1": 1} {
		if got, err := ParseChain(in); err != nil || got != want {
			t.Errorf("ParseChain(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "mars", "-1", "0"} {
		if _, err := ParseChain(bad); err == nil || !strings.Contains(err.Error(), "give a chain id") {
			t.Errorf("ParseChain(%q) error = %v", bad, err)
		}
	}
}

func TestOpFacts(t *testing.T) {
	for _, o := range Ops {
		if strings.HasPrefix(o.String(), "op(") {
			t.Errorf("op %d has no name", o)
		}
		if o.Withdraws() && o.NeedsDestination() {
			t.Errorf("%s both withdraws and needs a destination", o)
		}
	}
	if !ToDerivative.FromSpot() || ToSpot.FromSpot() || DerivativeWithdraw.FromSpot() {
		t.Error("FromSpot is wrong")
	}
}

func FuzzCheckAmount(f *testing.F) {
	for _, s := range []string{"1", "0.000001", "-0", "1e9", "abc", "1.1234567", "  7 ", "99999999999999999999999999.5"} {
		f.Add(s)
	}
	coll := collaterals()[0]
	f.Fuzz(func(t *testing.T, s string) {
		v, err := checkAmount(s, coll)
		if err == nil && (!v.IsPositive() || -v.Exponent() > int32(coll.Decimals) && !v.Equal(v.Truncate(6))) {
			t.Fatalf("accepted %q as %s", s, v)
		}
	})
}

func TestMaxAmount(t *testing.T) {
	c := collaterals()
	cases := []struct {
		op   Op
		coll api.Collateral
		w    string
		want string
	}{
		{ToSpot, c[0], "12.5", "12.5"},
		{SpotWithdraw, c[0], "12.5", "11.5"},
		{SpotWithdraw, c[0], "0.5", "0"},
		{SpotTransfer, c[1], "100", "99.950024"},
	}
	for _, x := range cases {
		if got := MaxAmount(x.op, x.coll, d(x.w)); got.String() != x.want {
			t.Errorf("MaxAmount(%s, %s, %s) = %s, want %s", x.op, x.coll.Symbol, x.w, got, x.want)
		}
	}
}

func FuzzCheckAddress(f *testing.F) {
	for _, s := range []string{dest, lower, "0x", "0xZZ", "", "0X5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := checkAddress(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if len(got) != 42 || !strings.EqualFold(got, strings.TrimSpace(s)) {
			t.Fatalf("accepted %q as %q", s, got)
		}
	})
}

// TestPastedKeyNotInFundsErrors: a key pasted into the collateral, amount or destination field
// of a transfer or withdrawal comes back in no error, whole or in part. Guards text.Quote in
// the funds checks and in api.ChecksumAddress.
func TestPastedKeyNotInFundsErrors(t *testing.T) {
	const pasted = "b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291"
	for _, v := range []string{pasted, "0x" + pasted, pasted[:40], "0x" + pasted[:38]} {
		for _, req := range []Request{
			{Op: SpotTransfer, Collateral: v, Amount: "1", Destination: "0x9908658A316D743159F001026F1ef08aa8F0b55B"},
			{Op: SpotTransfer, Collateral: "USDC", Amount: v, Destination: "0x9908658A316D743159F001026F1ef08aa8F0b55B"},
			{Op: SpotTransfer, Collateral: "USDC", Amount: "1", Destination: v},
			{Op: SpotWithdraw, Collateral: "USDC", Amount: v, Chain: 1},
		} {
			_, errs := Check(req, collaterals(), balances())
			if len(errs) == 0 {
				t.Errorf("%+v: accepted", req)
			}
			for _, e := range errs {
				lo := strings.ToLower(e.Msg)
				for i := 0; i+16 <= len(pasted); i++ {
					if strings.Contains(lo, pasted[i:i+16]) {
						t.Errorf("%q repeats the key", e.Msg)
						break
					}
				}
			}
		}
	}
}
