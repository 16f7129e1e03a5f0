// Does a second request reuse the first one's connection? Node.js fetch
// (undici) and http.get with the global agent, four requests back to back
// (each awaited, its body read) to a keep-alive http.Server on 127.0.0.1
// that counts the connections it accepts; the node rows' reuse_note
// (src/core/clients/table.cpp) says what this measures.
//   node node_reuse.js          prints the counts after each request
//   node node_reuse.js --check  and exits 1 unless they agree with the rows
// CTest clients.node-reuse; exit 77 (skipped) is the CMake test's when node is missing.
'use strict';
const http = require('node:http');

let accepted = 0;
const server = http.createServer((req, res) => res.end('ok'));
server.on('connection', () => { accepted += 1; });

async function counts(url, one) {
  const before = accepted;
  const out = [];
  for (let i = 0; i < 4; i += 1) {
    await one(url);
    out.push(accepted - before);
  }
  return out;
}

const viaFetch = async (url) => { const r = await fetch(url); await r.text(); };
const viaHttp = (url) => new Promise((resolve, reject) => {
  http.get(url, (r) => { r.resume(); r.on('end', resolve); }).on('error', reject);
});

server.listen(0, '127.0.0.1', async () => {
  const url = `http://127.0.0.1:${server.address().port}/`;
  const major = Number(process.versions.node.split('.')[0]);
  const result = { node: process.versions.node, http: await counts(url, viaHttp) };
  if (typeof fetch === 'function') result.fetch = await counts(url, viaFetch);
  process.stdout.write(JSON.stringify(result) + '\n');
  let ok = true;
  if (process.argv[2] === '--check') {
    // fetch: the second request opens a new connection, the later ones reuse it.
    if (result.fetch && result.fetch.join() !== '1,2,2,2') ok = false;
    // http.get: the global agent keeps connections alive from Node.js 19.
    const want = major >= 19 ? '1,1,1,1' : '1,2,3,4';
    if (result.http.join() !== want) ok = false;
    if (!ok) process.stderr.write('node_reuse.js: not what the node rows say (src/core/clients/table.cpp)\n');
  }
  server.close();
  process.exit(ok ? 0 : 1);
});
