// The official TypeScript SDK (@hotstuff-labs/ts-sdk 0.0.1-beta.13), unchanged, against a
// `tradedesk sim --mirror`: its order client places a paper market buy and its subscription
// client receives the mirrored book. Run by TestMirrorOfficialTSSDK:
//   node mirror.mjs SDK_DIR BASE_URL PRIVATE_KEY NOW_MS (the simulator's clock, for nonces)
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

// The SDK's dist imports directories and extensionless files (it is built for bundlers): node
// resolves them here as a bundler would, the SDK's code itself unchanged.
const hook = `export async function resolve(s, c, next) {
  try { return await next(s, c); } catch (e) {
    if (e.code === 'ERR_UNSUPPORTED_DIR_IMPORT') return next(s + '/index.js', c);
    if (e.code === 'ERR_MODULE_NOT_FOUND' && s.startsWith('.')) return next(s + '.js', c);
    throw e;
  }
}`;
register('data:text/javascript,' + encodeURIComponent(hook));

const [sdkDir, base, key, nowArg] = process.argv.slice(2);
let now = Number(nowArg);
const mod = (p) => import(pathToFileURL(`${sdkDir}/node_modules/${p}`).href);
const sdk = await mod('@hotstuff-labs/ts-sdk/dist/index.js');
const { privateKeyToAccount } = await mod('viem/_esm/accounts/index.js');
// Node before 22 has no global WebSocket: the one of the SDK's own dependency, ws.
globalThis.WebSocket ??= (await mod('ws/wrapper.mjs')).default;

const transport = new sdk.HttpTransport({ isTestnet: false, server: { mainnet: { api: base } } });
const info = new sdk.InfoClient({ transport });
const wallet = privateKeyToAccount(key);
const exchange = new sdk.ExchangeClient({ transport, wallet, nonce: () => ++now });
const out = {};

const book = await info.orderbook({ symbol: 'BTC-PERP' });
out.bestAsk = book.asks[0].price;
const placed = await exchange.placeOrder({
  orders: [{ instrumentId: 1, side: 'b', positionSide: 'BOTH', price: '0', size: '0.01', tif: 'IOC', ro: false, po: false,
    cloid: '', triggerPx: '', isMarket: true, tpsl: '', grouping: '' }],
  expiresAfter: now + 60000,
});
out.placed = placed;

const ws = new sdk.WebSocketTransport({ isTestnet: false, server: { mainnet: base.replace(/^http/, 'ws') + 'ws/' } });
const subs = new sdk.SubscriptionClient({ transport: ws });
out.streamed = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('no orderbook notification in 10 s')), 10000);
  subs.orderbook({ instrumentId: 'BTC-PERP' }, (ev) => { clearTimeout(timer); resolve(ev.detail); });
});
console.log(JSON.stringify(out));
process.exit(0);
