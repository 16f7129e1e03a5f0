// Node's http.get and fetch, timed in-process after a warm-up request:
//   node probe.js http|fetch HOST WARMPORT PORT
// prints one JSON line for tests/clients/harness.py. The time runs from the
// call to the TCP connection (the socket's 'connect' event; for fetch,
// undici's 'undici:client:connected' diagnostics channel) or to the error.
'use strict';
const http = require('node:http');
const { performance } = require('node:perf_hooks');

const [mode, host, warmPort, port] = process.argv.slice(2);
if (!['http', 'fetch'].includes(mode) || !port) {
  process.stderr.write('usage: node probe.js http|fetch HOST WARMPORT PORT\n');
  process.exit(2);
}

// Resolves to {connected, ms, peer, error}; every wait ends, the request
// itself is bounded by the harness's timeout.
function viaHttp(p) {
  return new Promise((resolve) => {
    const start = performance.now();
    let done = false;
    const finish = (r) => { if (!done) { done = true; resolve(r); } };
    // A new agent per request: no pooled socket can skip the connect.
    const req = http.get({ host, port: p, path: '/', agent: new http.Agent() }, (res) => {
      res.resume();
    });
    req.on('socket', (s) => {
      s.on('connect', () => finish({
        connected: true, ms: performance.now() - start, peer: `${s.remoteAddress}:${s.remotePort}`,
      }));
    });
    req.on('error', (e) => finish({ connected: false, ms: performance.now() - start, error: String(e.code || e) }));
  });
}

let dc = null;
try { dc = require('node:diagnostics_channel'); } catch { dc = null; }

async function viaFetch(p) {
  const start = performance.now();
  let connectedAt = null;
  const onConnected = () => { if (connectedAt === null) connectedAt = performance.now(); };
  const channel = dc && dc.channel('undici:client:connected');
  if (channel) channel.subscribe(onConnected);
  try {
    const res = await fetch(`http://${host}:${p}/`);
    await res.arrayBuffer();
    // Without the channel (an older undici) the response time stands in:
    // the harness's server answers at once.
    const end = connectedAt === null ? performance.now() : connectedAt;
    return { connected: true, ms: end - start, timed: connectedAt === null ? 'response' : 'connect' };
  } catch (e) {
    const cause = e.cause ? (e.cause.code || String(e.cause)) : String(e);
    return { connected: false, ms: performance.now() - start, error: cause };
  } finally {
    if (channel) channel.unsubscribe(onConnected);
  }
}

(async () => {
  const run = mode === 'http' ? viaHttp : viaFetch;
  await run(warmPort);
  const r = await run(port);
  r.version = process.versions.node;
  process.stdout.write(JSON.stringify(r) + '\n');
  process.exit(0);
})();
