// Package sim is tradedesk's simulated exchange: an http.Handler that speaks the Exchange Trading
// API (POST /exchange for signed actions, POST /info for queries, with or without a trailing
// slash) over a real matching engine, accounts with margin and liquidation, and markets that move
// on their own.
//
// # Running it
//
// For the demo or `tradedesk sim`, Serve runs the HTTP server and the market loop (one step a
// second) together until its context ends:
//
//	faults, err := sim.ParseFaults(flagFaults) // "", "0.1" or "5xx=0.05,timeout=0.02,garbage=0.02,lost=0.02,delay=10s"
//	s := sim.New(sim.WithSeed(seed), sim.WithFaults(faults))
//	ln, err := net.Listen("tcp", "127.0.0.1:0")
//	go s.Serve(ctx, ln) // base URL: "http://" + ln.Addr().String()
//
// A caller with its own server can mount s (it is an http.Handler) and call s.Run(ctx) for the
// market loop instead. RunCommand is `tradedesk sim` itself: its flags, then Serve.
//
// A Mirror is the same simulator fed a live exchange instead of its own makers and takers
// (`tradedesk sim --mirror`, the console's --shadow): NewMirror reads the live exchange's terms
// and book, Mirror.Serve (or Run beside a server of Mirror) keeps it in step. Paper takers walk
// the live book and use it up; paper resting orders fill only from live trades beyond the live
// queue ahead of them; the mirror holds no key and sends nothing to the live /exchange:
//
//	mr, err := sim.NewMirror(ctx, sim.MirrorConfig{Upstream: "https://api.example/", Latency: -1})
//	go mr.Serve(ctx, ln) // mr.Sim.Fund(addr, amount) opens a paper account
//
// In tests, a TestClock and Advance make it deterministic; WithQuietMarkets turns off market
// makers, takers and index moves so that numbers are exact, and SetIndexPrice moves prices by hand:
//
//	clock := sim.NewTestClock(time.UnixMilli(1769690400000))
//	s := sim.New(sim.WithSeed(1), sim.WithClock(clock))
//	srv := httptest.NewServer(s)
//	s.Advance(time.Minute) // moves the clock and runs 60 market steps
//
// # State
//
// Without WithStateFile the simulator keeps everything in memory. With it (`tradedesk sim
// --data DIR`, DIR/sim.db) it keeps its state in an SQLite database (the pure-Go driver the
// console's journal uses, WAL with synchronous=FULL): accounts, balances, positions, leverage
// settings and broker approvals, fills, funding, transfer and account-value records, volume and
// PnL, each account's order history with its open orders (resting on the book in their time
// priority, or waiting for a trigger) and their brackets, agents, the faucet's memory, the house
// accounts, the ledger of money in and out, each market's index, mark and last price, funding
// premium and book sequence number, the id counters and the highest nonce accepted. Each
// action, faucet or control call and market step is one transaction, committed before it is
// answered, that writes only what it changed: the rows of the accounts and orders it touched,
// the records it appended (fills, funding, transfers, history points), the markets that moved;
// decimals are exact text, so a restart brings money back to the unit, and a kill (-9 too)
// loses nothing answered. Not kept: the market makers' quotes (quoted afresh at the start),
// charts, the trade tape and each account's nonce memory (see below). A database New cannot
// read is reported by StateError and never written. The JSON state file of earlier versions is
// not read (`tradedesk sim` refuses a DIR that holds one).
// WithStartNonceFloor (which `tradedesk sim` always sets) refuses every nonce before the start
// and, with a state database, up to the highest nonce accepted before it: no body is acted on
// twice across a restart.
//
// # Behaviour the spec leaves open
//
//   - Authentication: the account is the signer recovered from the EIP-712 signature (source
//     "Mainnet" unless WithSource says otherwise). action.type may be the spec's name or the tx
//     type number. A nonce must equal data.nonce, lie in (now − 2 days, now + 1 day) and be new for
//     its signer; at most 100 orders or cancels. Signature failures and nonce reuse answer 401,
//     other bad requests 400, unknown /info methods 404, a POST without Content-Type
//     application/json 415, always as {"error": "..."}; a rejected signed action also carries
//     "address".
//   - The wire format is read strictly (protocol.md, "What the simulator checks"), on the raw
//     body and before the engine is locked, so a huge or slow request stalls nobody else: a key
//     appears once; action.data holds exactly its action's keys (each order and cancel too);
//     integers are JSON integers (the top-level nonce included); price, size, triggerPx and
//     amount are plain decimals ^[0-9]+(\.[0-9]+)?$ of at most 64 characters, length checked
//     first (triggerPx may be "", and a market order's price "" or 0 means the mark ± 5%); side,
//     positionSide, tif, tpsl and grouping take their exact values; signatures are canonical
//     (s ≤ n/2, v 27 or 28); expiresAfter is required on placeOrder and the cancels, after now
//     and after the nonce, and at most a day after the nonce; a cloid is unique among the
//     account's open orders and within one request; a destination is not the zero address and,
//     when mixed case, passes its EIP-55 checksum. Every refusal names the field and the fix and
//     echoes at most a short prefix of the value. A market order's price bound lies in the same
//     band as a limit price, and params.page is at most 1,000,000, so no number wraps when it
//     becomes ticks, lots or an offset.
//   - It acts only for accounts it knows. An account opens when Fund (`tradedesk sim --fund
//     0xADDR[=AMOUNT]`, the embedded demo) or the loopback-only POST /faucet {"user":"0x..."}
//     (WithDemoBalance, default 100000 USDC to spot and to derivatives each; once per address)
//     funds it, or when a transfer credits it. A request whose signature recovers to anyone else
//     (an unfunded key, a body changed after signing, an expired or revoked agent) is refused:
//     HTTP 401 {"error":"invalid order signer"}, and nothing changes. A query about an address
//     with no account answers with empty balances and opens nothing.
//   - Account actions (engine.applyControl): addAgent (the agent's proof is checked), revokeAgent,
//     updatePerpInstrumentLeverage (number or string; within the tier the position and orders
//     reach, and refused when it would leave the account under margin) and approveBrokerFee
//     ("0" revokes). An agent acts for its account until validUntil: orders and cancels only
//     (anything else answers 403). allAgents {user} lists the unexpired agents.
//   - At most WithMaxAccounts accounts (default 10000) are held. To open one more, the simulator
//     forgets idle accounts: no position, no open or trigger order, unused (no action, no query)
//     for an hour, and every nonce they signed older than the nonce window (so none of their old
//     requests can be replayed). Their balances and histories go with them. When none is idle,
//     funding a new account fails (a transfer to a new address answers 503) and open accounts go on working.
//   - placeOrder answers {"status": {...}} for one order and {"status": [...]} for several; each
//     status has oid and state, and totalSz and avgPx when something filled at once, or error
//     for an order of a batch that was rejected. A request fails as a whole only when every
//     order was rejected. Order states: open, filled, cancelled, triggered.
//   - Market orders (isMarket) are IOC with the price as the worst acceptable price; an empty or
//     zero price means the mark ± 5%. Reduce-only orders are trimmed to the position and are
//     exempt from the minimum notional. Orders crossing the account's own resting orders cancel
//     the resting ones. Limit prices must lie within the mark ± 50% (the ticker's
//     min/max_trading_price).
//   - Trigger orders (triggerPx, tpsl tp or sl) rest untriggered, shown as open; when the mark
//     reaches the trigger the order becomes "triggered" and a new order with its terms (same cloid)
//     is placed. A reduce-only trigger with grouping "position" closes the whole position as it
//     is when it fires.
//   - Brackets (engine.planBrackets): in one placeOrder, an entry with grouping "normal" and tpsl "",
//     followed by its take-profit and/or stop-loss (grouping "normal", reduce-only triggers on
//     the other side, the entry's size, each trigger on its own side of the entry's price, or of
//     the mark for a market entry). The children wait unarmed until the entry fills, then cover
//     what it filled; an entry cancelled before any fill takes them with it. Grouping
//     "position": a reduce-only take-profit or stop-loss of the account's position (one is
//     needed; the trigger on its own side of the mark); a new one replaces the one of its kind.
//     Children of either kind are cancelled when the position they protect is gone, and when
//     the order one child fired fills, the other is cancelled. An entry that fills against the
//     account's opposite position (it reduces a short rather than opening a long) leaves its
//     children nothing to close: they are cancelled as it fills, with that reason in order
//     history, and placeOrder's answer gives each child's state after the request ("cancelled").
//     A malformed bracket is refused whole (entry and children), with the rule it broke.
//   - Fees: makers −0.01% (a rebate), takers 0.04%, liquidations 0.5% of notional. fill_type is
//     0 for a trade and 1 for a liquidation. Spot fills use direction openLong (buy) and
//     closeLong (sell). A perpetual fill that closes a position and opens the opposite one keeps
//     closeLong or closeShort for the part that closed (|start_size|) and names the rest's
//     direction in open_direction (openShort or openLong), the simulator's addition. A resting
//     reduce-only order reached after other fills closed its position is cancelled, and its
//     order history record says so in "reason".
//   - Margin: leverage defaults to 10x (or the instrument's maximum if lower), cross, except on
//     isolated-only instruments; SetLeverage changes it. Initial margin is notional ÷ leverage,
//     maintenance margin comes from the margin tiers; open orders count as if filled at the mark.
//     A trigger order that is not reduce-only reserves margin while it waits, like a resting
//     order; when placed, any order is checked at the highest of the mark, its limit and its
//     trigger price, by api.MarginOrder (the rule the console's order check uses too): margin
//     for the growth of the worst position its open orders allow, plus the taker fee on its
//     whole size. When a trigger fires, its order is checked again (something to reduce,
//     post-only, fill-or-kill, margin as the account stands then); one that fails is cancelled
//     and its order history record says why in "reason".
//   - Fill-or-kill counts what would really fill: not the account's own orders (self-trade
//     prevention cancels them), and a reduce-only resting order only up to what is left of its
//     owner's position. It fills in full or is refused and does nothing.
//   - Liquidation (cross margin): an account whose cross equity (USDC, plus its other collateral
//     at price × weight, plus unrealised PnL) falls below its cross maintenance margin has its
//     orders cancelled and its cross positions closed at the mark into the liquidator's
//     account. The loss and the liquidation fee (to the insurance fund) come out of USDC, which
//     may go negative: while the other collateral at its weighted value covers that debt, the
//     debt stays, and no collateral leaves the derivative account until USDC is repaid. When it
//     does not cover it (then, or later as prices move, with or without a position), the
//     insurance fund buys the collateral at its index price, as much as the debt needs, and pays
//     whatever is still owed; the liquidation fills then show what the account really paid (the
//     fee shrinks first, then the loss). An isolated position loses at most its own margin.
//   - Funding is paid every hour on the hour (WithFundingInterval): the rate is the average
//     premium of the book's mid over the index divided by 8, plus 0.00125%, clamped to ±0.4%.
//     Every position pays or receives it, the exchange's own market makers' included. It is for
//     the positions held at the hour exactly and dated at the hour, whatever the market step's
//     phase: an action that arrives after the hour, before any step has, pays it first.
//
// # Money
//
// The simulator neither creates nor destroys money: Books returns its balance sheet. Money comes
// in as demo balances and Deposit, and leaves as withdrawals (and with forgotten accounts);
// everything else moves it between accounts, the exchange's own included. Their addresses are
// FeeAccount (fees; pays makers' rebates; keeps funding's rounding remainder), InsuranceFund
// (liquidation fees, seized collateral, shortfalls), MakerAccount, TakerAccount and
// LiquidatorAccount; account_summary answers for each, and the /info method exchange_accounts {}
// lists them all (name, address, role, balances, positions) with the sums over every account:
// held equals deposited − withdrawn per collateral, to the unit. Their balances may be negative.
//
// The insurance fund's rules. It receives liquidation fees and the collateral it buys from
// bankrupt accounts; it pays whatever a bankrupt account cannot (the rest of an isolated
// position's loss past its margin, a USDC debt its other collateral no longer covers), at once
// and without limit, so it may go below zero. Whenever it is below zero after a liquidation pass
// (each market step, each index move), the simulator auto-deleverages, as real perpetual
// exchanges do: the user position (never the exchange's own) opposite a position the liquidator
// took over that is most in profit at the mark (unrealised PnL over its cost, then the larger
// PnL, then the address) is closed against the liquidator's at the mark, without a fee, as far
// as the deficit needs; of that close's realised profit, as much as the deficit goes to the fund
// (a profit is cut, never turned into a loss), and the next most profitable follows until the
// fund is back at zero. The account's fill has fill_type 2 (0 is a trade, 1 a liquidation),
// direction closeLong or closeShort, fee 0, and the closed PnL it kept after the cut, so its
// balance still follows from its fills. When no such position is in profit the fund stays below
// zero, and the liquidator keeps what it took over (its PnL moves with the market).
//
// Rounding: every balance is kept at its collateral's decimals (USDC 6). What an account pays
// (fees, funding owed, margin set aside, collateral sold to cover a debt) is rounded up to the
// next unit; what it receives (rebates, funding earned, margin released, the proceeds of that
// sale) is rounded down; the exchange account on the other side takes exactly the rounded
// amount. A partial close takes its share of the position's cost rounded to the nearest unit;
// the remainder stays in the position. Withdrawable figures are rounded down, so the figure
// shown can be moved as it is.
//   - Ticker change_24h is a percentage; volume_24h is the traded notional in USD (quote units).
//     Both read the last 24 hours in one-minute slots counted from the simulator's start (not
//     from the clock's minute), so one seed gives the same figures at any start second.
//   - Pagination: page (from 1) and limit (1 to 1000, default 100), newest first.
//   - Method names: every method answers to its snake_case name (the spec, the Python SDK) and
//     to the camelCase name of the npm TypeScript SDK (accountSummary, openOrders, userFees, ...);
//     params are read strictly per method (infoTable), with both SDKs' spellings
//     (instrumentId and instrument_id) and null as absent.
//   - Beyond the spec's table, in the shapes the SDKs declare: open_orders {user, page, limit}
//     (order records in state open), orderbook {symbol, depth} (default 20 levels, with
//     instrument_name and sequence_number), trades {symbol, limit} (recent trades, newest first,
//     side is the taker's, with maker and taker), bbo {symbol} (an array: best bid and ask with
//     sizes), oracle {symbol} (index and mark), funding_history {user, page, limit},
//     transfer_history {user, page, limit} (a bare array: deposits, transfers out and in, internal
//     moves and withdrawals, newest first, with the fee the sender paid; an internal move's
//     direction is spot_to_derivatives or derivatives_to_spot; two kinds of the simulator's own
//     record what the insurance fund did to a bankrupt account: insurance_seizure, amount of the
//     collateral taken, with the proceeds credited in USDC and the price, and insurance_cover,
//     amount USDC of its debt paid that no liquidation fill shows), user_fees {user} (the
//     one fee schedule and the account's 14 and 30 day volumes), account_history {user, limit}
//     (account value, PnL and volume sampled at most once a minute, ending now), all_agents;
//     referral_summary, account_info answer truthfully empty (the simulator has no referrals or
//     rewards); vaults, sub_vaults and vault_balance answer empty too, as the SDKs type no shape
//     for them: a vault (AddVault) shows in its depositors' account_summary vault_balances, and
//     depositToVault / redeemFromVault act on it.
//   - Charts keep 1500 one-minute candles and 200 to 600 of each longer resolution; each market's
//     trade tape keeps 200 trades; fills (2000, WithKeepFills), closed orders (1000,
//     WithKeepOrders), funding records (2000) and remembered nonces (50000) per account are
//     capped, an account holds at most 1000 open and trigger orders, and the number of accounts
//     is capped, so a long run stays bounded in memory (TestLongRunStaysBounded runs twelve
//     market hours).
//   - WithMarkets(n) (`tradedesk sim --markets N`) adds n synthetic perpetuals, SYN1-PERP to
//     SYNn-PERP (ids 1001 on), traded like the others and quoted by a ladder the makers move
//     only where it must move (engine.shiftQuotes), not whole every step. Their candles are
//     compact: one series per resolution serves the three chart types (mark and index candles
//     carry no volume), the 24-hour figures count hour-long slots, and together they keep about
//     4 MiB of bars however many there are (a share each, at least 8 bars a resolution, at most
//     the default counts), made-up past and live bars alike.
package sim
