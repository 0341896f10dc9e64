package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tradedesk/tradedesk/api/text"
)

// Network is one exchange deployment: its API base URL and the EIP-712 source its actions are
// signed for.
type Network struct {
	Name   string // "mainnet" or "testnet"
	URL    string // API base URL, with a trailing slash
	Source string // "Mainnet" or "Testnet"
}

// The networks of protocol.md.
var (
	Mainnet = Network{Name: "mainnet", URL: "https://api.hotstuff.trade/", Source: SourceMainnet}
	Testnet = Network{Name: "testnet", URL: "https://testnet-api.hotstuff.trade/", Source: SourceTestnet}
)

// Networks lists the known networks, mainnet first.
func Networks() []Network { return []Network{Mainnet, Testnet} }

// LookupNetwork finds a network by name (case-insensitive).
func LookupNetwork(name string) (Network, error) {
	for _, n := range Networks() {
		if strings.EqualFold(n.Name, strings.TrimSpace(name)) {
			return n, nil
		}
	}
	return Network{}, fmt.Errorf("unknown network %s: want mainnet or testnet", text.Quote(name))
}

// Defaults of the client.
const (
	DefaultTimeout  = 30 * time.Second
	DefaultMaxBody  = 16 << 20
	DefaultPageSize = 100
)

// RetryPolicy says how /info calls are retried on a rate limit (429), a 5xx, a timeout or a network
// error. /exchange calls are never retried. Attempts counts every try, the first included; 1 or
// less disables retries. Waits grow from BaseDelay, doubling, capped at MaxDelay, with jitter.
// A Retry-After from the server is honoured when it is at most MaxWait; a longer one ends the
// retries and the caller gets the 429 with its RetryAfter.
type RetryPolicy struct {
	Attempts  int
	BaseDelay time.Duration
	MaxDelay  time.Duration
	MaxWait   time.Duration
}

// DefaultRetry is the /info retry policy unless WithRetry says otherwise.
var DefaultRetry = RetryPolicy{Attempts: 3, BaseDelay: 200 * time.Millisecond, MaxDelay: 3 * time.Second, MaxWait: 10 * time.Second}

// Client talks to one exchange: /info queries for anyone, signed /exchange actions when it holds a
// Signer. It is safe for concurrent use.
type Client struct {
	base string // base URL without trailing slash
	hc   *http.Client
	// exchangeHC follows no redirect and infoHC none to another scheme or host: copies of hc
	// made by New (see noRedirects).
	exchangeHC, infoHC *http.Client
	signer             *Signer
	address            string
	source             string
	network            *Network
	actionType         ActionTypeForm
	window             time.Duration
	clock              func() time.Time
	retry              RetryPolicy
	maxBody            int64
	timeout            time.Duration
	configErr          error
	logger             *slog.Logger  // nil: slog.Default() at call time
	budgetLimits       *BudgetLimits // WithRequestBudget (nil: the host's as set, unmetered by default)
	budget             *hostBudget   // the host's, shared by every client of it in the process

	noOpenOrders atomic.Bool // the server answered open_orders with an unknown-method error
}

var _ Exchange = (*Client)(nil)

// Option configures a Client.
type Option func(*Client)

// WithSigner gives the client a key to sign /exchange actions with; its address is the account.
func WithSigner(s *Signer) Option { return func(c *Client) { c.signer = s } }

// WithAddress sets the account for a read-only client (no key). With a signer too, the address
// must be the signer's.
func WithAddress(addr string) Option {
	return func(c *Client) {
		a, err := ChecksumAddress(addr)
		if err != nil {
			c.setErr(fmt.Errorf("address: %w", err))
			return
		}
		c.address = a
	}
}

// WithHTTPClient sets the HTTP client (default: a plain http.Client; timeouts come from WithTimeout).
func WithHTTPClient(h *http.Client) Option {
	return func(c *Client) {
		if h != nil {
			c.hc = h
		}
	}
}

// PollingHTTPClient is an HTTP client for a caller that keeps several requests out at once (the
// console's polls): Go's default transport (proxy, timeouts, HTTP/2) keeping 16 idle connections
// per host instead of 2, so the requests reuse their connections (with 2, one request in eight
// opened a new one: a TLS handshake each time). Pass it to WithHTTPClient.
func PollingHTTPClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 16
	return &http.Client{Transport: tr}
}

// WithNetwork selects a network: its source signs every action, and its URL is used when New is
// given an empty base URL.
func WithNetwork(n Network) Option {
	return func(c *Client) {
		nn := n
		c.network = &nn
	}
}

// WithSource overrides the EIP-712 source ("Mainnet" or "Testnet"), e.g. for a simulator that
// plays testnet.
func WithSource(source string) Option {
	return func(c *Client) {
		if source != SourceMainnet && source != SourceTestnet {
			c.setErr(fmt.Errorf("source %s: want %s or %s", text.Quote(source), SourceMainnet, SourceTestnet))
			return
		}
		c.source = source
	}
}

// WithExpiryWindow sets expiresAfter - nonce on orders and cancels (default 60 s).
func WithExpiryWindow(d time.Duration) Option {
	return func(c *Client) {
		if d < time.Second {
			c.setErr(fmt.Errorf("expiry window %s: want at least 1s", d))
			return
		}
		c.window = d
	}
}

// WithClock sets the clock nonces are taken from (default time.Now).
func WithClock(now func() time.Time) Option {
	return func(c *Client) {
		if now != nil {
			c.clock = now
		}
	}
}

// WithRetry sets the /info retry policy.
func WithRetry(p RetryPolicy) Option { return func(c *Client) { c.retry = p } }

// WithMaxBody caps the size of a response body in bytes (default 16 MiB).
func WithMaxBody(n int64) Option {
	return func(c *Client) {
		if n > 0 {
			c.maxBody = n
		}
	}
}

// WithTimeout bounds each HTTP attempt, answer included (default 30 s; the caller's context may
// be shorter).
func WithTimeout(d time.Duration) Option {
	return func(c *Client) {
		if d > 0 {
			c.timeout = d
		}
	}
}

func (c *Client) setErr(err error) {
	if c.configErr == nil {
		c.configErr = err
	}
}

// New makes a client for baseURL ("" means the network's URL, mainnet by default). Options set the
// signer or read-only address, network, HTTP client and limits. A bad base URL or option does not
// panic: every call then returns a KindInvalid *Error saying what to fix (see also Err).
func New(baseURL string, opts ...Option) *Client {
	c := &Client{
		hc: &http.Client{}, window: DefaultExpiryWindow, clock: time.Now, retry: DefaultRetry,
		maxBody: DefaultMaxBody, timeout: DefaultTimeout,
	}
	for _, o := range opts {
		o(c)
	}
	if c.source == "" {
		c.source = SourceMainnet
		if c.network != nil {
			c.source = c.network.Source
		}
	}
	if c.actionType == ActionTypeAuto {
		c.actionType = ActionTypeName
		if c.network != nil {
			c.actionType = ActionTypeNumber
		}
	}
	if baseURL == "" {
		baseURL = Mainnet.URL
		if c.network != nil {
			baseURL = c.network.URL
		}
	}
	c.exchangeHC, c.infoHC = noRedirects(c.hc), sameOriginRedirects(c.hc)
	c.base = strings.TrimRight(baseURL, "/")
	c.budget = budgetFor(c.base, c.budgetLimits)
	if u, err := url.Parse(baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		c.setErr(fmt.Errorf("base URL %s: want an absolute http or https URL", text.Quote(baseURL)))
	}
	if c.signer != nil && c.address != "" && c.address != c.signer.Account() {
		c.setErr(fmt.Errorf("address %s is not the key's account %s", c.address, c.signer.Account()))
	}
	return c
}

// Err reports a configuration problem from New's arguments (nil when the client is usable).
func (c *Client) Err() error { return c.configErr }

// Address is the account: the signer's address, else the read-only address, else "".
func (c *Client) Address() string {
	if c.signer != nil {
		return c.signer.Account()
	}
	return c.address
}

// CanTrade reports whether the client holds a signer.
func (c *Client) CanTrade() bool { return c.signer != nil }

// IsAgent reports whether the client signs with an agent key (orders and cancels only).
func (c *Client) IsAgent() bool { return c.signer != nil && c.signer.IsAgent() }

// BaseURL is the API base URL without its trailing slash.
func (c *Client) BaseURL() string { return c.base }

// Source is the EIP-712 source the client signs for.
func (c *Client) Source() string { return c.source }

// String describes the client without secrets.
func (c *Client) String() string {
	mode := "read-only"
	switch {
	case c.IsAgent():
		mode = "trading as agent " + c.signer.Address()
	case c.CanTrade():
		mode = "trading"
	}
	return fmt.Sprintf("api.Client(%s, %s, %s, %s)", c.base, c.source, c.Address(), mode)
}

// Format prints String for every verb, so no field of the client is ever dumped.
func (c *Client) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// response is one 2xx answer.
type response struct {
	status int
	body   []byte
}

// post sends one attempt and returns the 2xx response, the body read (nil when none), and the
// error. For /exchange (exchange true) failures after the request may have been written are
// marked ambiguous. A 2xx error body returns both the response and a KindServer error. The caller
// logs the attempt once it knows its outcome.
//
// limit, when above 0, is the most entries a list of a 2xx answer may hold: the body is checked
// as it is read (AnswerScan) and the reading stops at the first piece over a limit.
func (c *Client) post(ctx context.Context, op, path string, body []byte, exchange bool, limit int) (*response, []byte, *Error) {
	if c.configErr != nil {
		return nil, nil, &Error{Kind: KindInvalid, Op: op, Message: c.configErr.Error()}
	}
	if e := c.budget.take(ctx, op, requestWeight(op), exchange, c.timeout); e != nil {
		return nil, nil, e
	}
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var wrote atomic.Bool
	trace := &httptrace.ClientTrace{WroteRequest: func(i httptrace.WroteRequestInfo) {
		if i.Err == nil {
			wrote.Store(true)
		}
	}}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(actx, trace), http.MethodPost, c.base+path, bytes.NewReader(body))
	if err != nil {
		return nil, nil, &Error{Kind: KindInvalid, Op: op, Err: err}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	hc := c.infoHC
	if exchange {
		hc = c.exchangeHC
	}
	resp, err := hc.Do(req)
	if errors.Is(err, errCrossOrigin) {
		e := &Error{Kind: KindHTTP, Op: op, Err: err, Message: "the server redirected the request to another host or scheme; refused"}
		if resp != nil {
			e.Status = resp.StatusCode
		}
		return nil, nil, e
	}
	if err != nil {
		e := transportError(ctx, op, err)
		e.ambiguous = exchange && wrote.Load()
		return nil, nil, e
	}
	defer resp.Body.Close()
	if exchange && resp.StatusCode >= 300 && resp.StatusCode < 400 {
		return nil, nil, redirected(op, resp)
	}
	return c.readResponse(ctx, op, resp, exchange, limit)
}

// errCrossOrigin is the redirect an /info request refuses: to another scheme or host.
var errCrossOrigin = errors.New("redirect to another scheme or host")

// noRedirects is h for signed requests: a redirect is never followed, so a signed action is
// never delivered to a second server (a 307 or 308 would send the whole body again, https to
// plain http included).
func noRedirects(h *http.Client) *http.Client {
	cp := *h
	cp.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &cp
}

// sameOriginRedirects is h for /info: a redirect on the same scheme and host is followed (at
// most 10), one elsewhere refused.
func sameOriginRedirects(h *http.Client) *http.Client {
	cp := *h
	cp.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		if first := via[0].URL; req.URL.Scheme != first.Scheme || req.URL.Host != first.Host {
			return errCrossOrigin
		}
		return nil
	}
	return &cp
}

// redirected is the error of an /exchange request answered with a redirect, which is not
// followed. The server that answered may have acted on it before redirecting, so the outcome is
// unknown: the order is looked up by its cloid, never sent again blindly.
func redirected(op string, resp *http.Response) *Error {
	where := "elsewhere"
	if loc, err := resp.Location(); err == nil {
		where = "to " + text.Quote(loc.Scheme+"://"+loc.Host)
	}
	return &Error{Kind: KindHTTP, Op: op, Status: resp.StatusCode, ambiguous: true,
		Message: "redirected " + where + ", not followed (a signed request never is): the action may or may not have been executed; " +
			"look it up by its cloid, never resend it blindly"}
}

func (c *Client) readResponse(ctx context.Context, op string, resp *http.Response, exchange bool, limit int) (*response, []byte, *Error) {
	ok2xx := resp.StatusCode >= 200 && resp.StatusCode < 300
	if !ok2xx {
		limit = 0 // an error body is read as it is (up to the cap), and quoted
	}
	data, over, err := c.readBody(resp, limit)
	if over != nil {
		kind := KindDecode
		if over.TooMany {
			kind = KindTooLarge
		}
		return nil, data, &Error{Kind: kind, Op: op, Status: resp.StatusCode, Message: over.Error(), Err: over, ambiguous: exchange}
	}
	if errors.Is(err, errOverCap) {
		return nil, nil, &Error{Kind: KindTooLarge, Op: op, Status: resp.StatusCode, ambiguous: exchange && ok2xx,
			Message: fmt.Sprintf("body of %d bytes over the %d-byte cap", resp.ContentLength, c.maxBody)}
	}
	if err != nil {
		e := transportError(ctx, op, err)
		e.Status = resp.StatusCode
		e.ambiguous = exchange
		return nil, data, e
	}
	if int64(len(data)) > c.maxBody {
		return nil, data, &Error{Kind: KindTooLarge, Op: op, Status: resp.StatusCode, ambiguous: exchange && ok2xx,
			Message: fmt.Sprintf("body over the %d-byte cap", c.maxBody)}
	}
	if !ok2xx {
		e := &Error{Kind: KindHTTP, Op: op, Status: resp.StatusCode, Message: bodySnippet(data)}
		if m, ok := serverMessage(data); ok {
			e.Message = m
		}
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
			e.RetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		}
		if resp.StatusCode == http.StatusTooManyRequests {
			c.budget.coolDown(e.RetryAfter) // every request to the host waits it out, not only this one's retry
		}
		e.ambiguous = exchange && (resp.StatusCode == http.StatusBadGateway || resp.StatusCode == http.StatusGatewayTimeout)
		return nil, data, e
	}
	r := &response{status: resp.StatusCode, body: data}
	if !json.Valid(data) {
		return nil, data, &Error{Kind: KindNotJSON, Op: op, Status: resp.StatusCode, Message: bodySnippet(data), ambiguous: exchange}
	}
	if m, ok := serverMessage(data); ok {
		return r, data, &Error{Kind: KindServer, Op: op, Status: resp.StatusCode, Message: m}
	}
	return r, data, nil
}

// errOverCap is a body whose stated length is over the cap: it is not read.
var errOverCap = errors.New("body over the cap")

// readBody reads a body up to the cap (one byte more, to tell a body over it). A body that says
// its length is read into a buffer of that size; one over the cap is not read at all. With a
// limit above 0 each piece read is scanned (AnswerScan) and the reading stops at the first piece
// over a limit, which over reports.
func (c *Client) readBody(resp *http.Response, limit int) (data []byte, over *LimitError, err error) {
	if resp.ContentLength > c.maxBody {
		return nil, nil, errOverCap
	}
	var scan *AnswerScan
	if limit > 0 {
		scan = NewAnswerScan(limit)
	}
	size := 64 << 10
	if resp.ContentLength > 0 {
		size = int(resp.ContentLength) + 1
	}
	buf := make([]byte, 0, size)
	r := io.LimitReader(resp.Body, c.maxBody+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, rerr := r.Read(buf[len(buf):cap(buf)])
		if scan != nil && n > 0 {
			if serr := scan.Write(buf[len(buf) : len(buf)+n]); serr != nil {
				over, _ = serr.(*LimitError)
				return buf[:len(buf)+n], over, nil
			}
		}
		buf = buf[:len(buf)+n]
		if rerr == io.EOF {
			if scan != nil && int64(len(buf)) <= c.maxBody {
				if serr := scan.Close(); serr != nil {
					over, _ = serr.(*LimitError)
					return buf, over, nil
				}
			}
			return buf, nil, nil
		}
		if rerr != nil {
			return buf, nil, rerr
		}
	}
}

func transportError(ctx context.Context, op string, err error) *Error {
	e := &Error{Op: op, Err: err, Kind: KindNetwork}
	var ne net.Error
	switch {
	case ctx.Err() != nil && errors.Is(ctx.Err(), context.Canceled):
		e.Kind = KindCanceled
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		e.Kind = KindTimeout
	}
	return e
}

// backoff is the wait before retry number attempt (1-based), or ok false to stop retrying.
func (c *Client) backoff(e *Error, attempt int) (time.Duration, bool) {
	if attempt >= c.retry.Attempts || !e.Temporary() {
		return 0, false
	}
	if e.RetryAfter > 0 {
		return e.RetryAfter, c.retry.MaxWait <= 0 || e.RetryAfter <= c.retry.MaxWait
	}
	d := c.retry.BaseDelay << (attempt - 1)
	if c.retry.MaxDelay > 0 && (d > c.retry.MaxDelay || d <= 0) {
		d = c.retry.MaxDelay
	}
	if d <= 0 {
		return 0, true
	}
	return rand.N(d) + d/4, true
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
