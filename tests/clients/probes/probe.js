// Node's http.get, fetch and net.connect with autoSelectFamily off, timed
// in-process after a warm-up request:
//   node probe.js http|fetch|net-noauto HOST WARMPORT PORT
// prints one JSON line for tests/clients/harness.py. http.get and
// net-noauto: from the call to the socket's 'connect' event or the error;
// fetch: see viaFetch.
'use strict';
const http = require('node:http');
const net = require('node:net');
const { performance } = require('node:perf_hooks');

const [mode, host, warmPort, port] = process.argv.slice(2);
if (!['http', 'fetch', 'net-noauto'].includes(mode) || !port) {
  process.stderr.write('usage: node probe.js http|fetch|net-noauto HOST WARMPORT PORT\n');
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

// net.connect({autoSelectFamily: false}): the first address dns.lookup
// gives, nothing else (what --no-network-family-autoselection makes the default).
function viaNetNoAuto(p) {
  return new Promise((resolve) => {
    const start = performance.now();
    const s = net.connect({ host, port: Number(p), autoSelectFamily: false });
    s.on('connect', () => {
      resolve({ connected: true, ms: performance.now() - start, peer: `${s.remoteAddress}:${s.remotePort}` });
      s.destroy();
    });
    s.on('error', (e) => resolve({ connected: false, ms: performance.now() - start, error: String(e.code || e) }));
  });
}

let dc = null;
try { dc = require('node:diagnostics_channel'); } catch { dc = null; }

// fetch is timed on undici's own diagnostics channels: from
// 'beforeConnect' (the connector starts: lookup, then the connect
// algorithm) to 'connected' or 'connectError'. fetch's own work before that
// (Request, streams, a new pool for the origin: 30-60 ms on a loaded
// machine even after a warm-up) is not the connect, and is reported apart.
async function viaFetch(p) {
  const start = performance.now();
  const seen = {};
  const note = (name) => () => { if (seen[name] === undefined) seen[name] = performance.now(); };
  const names = ['undici:client:beforeConnect', 'undici:client:connected', 'undici:client:connectError'];
  const subs = dc ? names.map((n) => [dc.channel(n), note(n)]) : [];
  for (const [ch, fn] of subs) ch.subscribe(fn);
  let r;
  try {
    const res = await fetch(`http://${host}:${p}/`);
    await res.arrayBuffer();
    r = { connected: true };
  } catch (e) {
    r = { connected: false, error: e.cause ? (e.cause.code || String(e.cause)) : String(e) };
  } finally {
    for (const [ch, fn] of subs) ch.unsubscribe(fn);
  }
  const end = performance.now();
  const began = seen['undici:client:beforeConnect'];
  const done = r.connected ? seen['undici:client:connected'] : seen['undici:client:connectError'];
  if (began !== undefined && done !== undefined) {
    r.ms = done - began;
    r.before_connect_ms = began - start;
    r.timed = 'undici connect';
  } else {
    // An undici without these channels: the whole call stands in.
    r.ms = end - start;
    r.timed = 'whole call';
  }
  return r;
}

(async () => {
  const run = { http: viaHttp, fetch: viaFetch, 'net-noauto': viaNetNoAuto }[mode];
  await run(warmPort);
  const r = await run(port);
  r.version = process.versions.node;
  process.stdout.write(JSON.stringify(r) + '\n');
  process.exit(0);
})();
