// The npm SDKs people run against local servers, each called as its README
// shows and timed in-process after a warm-up call:
//   node probe_npm.js openai|ollama|axios HOST WARMPORT PORT
// prints one JSON line for tests/clients/harness.py. The packages come from
// node_modules beside this file (tests/clients/npm_cache.sh installs them;
// harness.py copies them here).
//
// What is timed is the connect the SDK's call makes, not the SDK's request
// work around it: openai and ollama call the global fetch (undici), timed on
// undici's diagnostics channels from 'beforeConnect' to 'connected' or
// 'connectError'; axios calls http.request (through follow-redirects) with
// the global agent, timed from the agent's createConnection to the socket's
// 'connect' or 'error'. The server answers "ok", not JSON: an SDK's parse
// error after a connect is not a connect failure.
'use strict';
const http = require('node:http');
const { performance } = require('node:perf_hooks');

const [mode, host, warmPort, port] = process.argv.slice(2);
if (!['openai', 'ollama', 'axios'].includes(mode) || !port) {
  process.stderr.write('usage: node probe_npm.js openai|ollama|axios HOST WARMPORT PORT\n');
  process.exit(2);
}

let dc = null;
try { dc = require('node:diagnostics_channel'); } catch { dc = null; }

// The first connect a call makes: {began, done, connected, peer, error}.
let first = null;
function note(event, extra) {
  if (!first) return;
  const t = performance.now();
  if (event === 'begin' && first.began === undefined) first.began = t;
  if ((event === 'connected' || event === 'failed') && first.done === undefined) {
    first.done = t;
    first.connected = event === 'connected';
    Object.assign(first, extra);
  }
}

if (dc) {
  dc.channel('undici:client:beforeConnect').subscribe(() => note('begin'));
  dc.channel('undici:client:connected').subscribe((m) => {
    const s = m && m.socket;
    note('connected', { peer: s ? `${s.remoteAddress}:${s.remotePort}` : null });
  });
  dc.channel('undici:client:connectError').subscribe((m) => {
    const e = m && m.error;
    note('failed', { error: e ? String(e.code || e) : 'connect error' });
  });
}

// axios: the global agent's own createConnection, wrapped to see the socket.
const agent = http.globalAgent;
const create = agent.createConnection;
agent.createConnection = function wrapped(...args) {
  note('begin');
  const s = create.apply(this, args);
  s.once('connect', () => note('connected', { peer: `${s.remoteAddress}:${s.remotePort}` }));
  s.once('error', (e) => note('failed', { error: String(e.code || e) }));
  return s;
};

const sdk = {
  openai: () => {
    const { OpenAI } = require('openai');
    // maxRetries 0: openai-node retries a failed connection twice by
    // default (client.js, maxRetries=2); only the first connect is timed.
    return (p) => new OpenAI({ baseURL: `http://${host}:${p}/v1`, apiKey: 'harness', maxRetries: 0 })
      .models.list();
  },
  ollama: () => {
    const { Ollama } = require('ollama');
    return (p) => new Ollama({ host: `http://${host}:${p}` }).list();
  },
  axios: () => {
    const axios = require('axios');
    return (p) => axios.get(`http://${host}:${p}/`);
  },
}[mode]();

async function once(p) {
  first = {};
  const start = performance.now();
  let threw = null;
  try {
    await sdk(p);
  } catch (e) {
    threw = e;
  }
  const end = performance.now();
  const f = first;
  first = null;
  if (f.began === undefined || f.done === undefined) {
    // No connect seen: report the whole call and why.
    return { connected: false, ms: end - start, timed: 'whole call',
             error: `no connect event seen (${threw ? String(threw.code || threw.message || threw) : 'no error'})` };
  }
  const r = { connected: f.connected, ms: f.done - f.began, before_connect_ms: f.began - start,
              timed: mode === 'axios' ? 'agent createConnection to socket connect' : 'undici connect' };
  if (f.peer) r.peer = f.peer;
  if (!f.connected) r.error = f.error;
  return r;
}

(async () => {
  await once(warmPort);
  const r = await once(port);
  r.version = process.versions.node;
  r.package = JSON.parse(require('node:fs').readFileSync(
    require('node:path').join(__dirname, 'node_modules', mode, 'package.json'), 'utf8')).version;
  process.stdout.write(JSON.stringify(r) + '\n');
  process.exit(0);
})();
