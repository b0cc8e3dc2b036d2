// Load generator for api.bench.ts, run as a child process so neither its event loop nor its
// CPU time is the server's: `connections` keep-alive connections, one request in flight on
// each, for `seconds`. Takes its job as JSON in argv[2]; sends back
// { requests, bad, seconds, firstBadStatus }.
import { Pool } from 'undici';

const { origin, path, headers, connections, seconds } = JSON.parse(process.argv[2]);
const pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 });
let requests = 0;
let bad = 0;
let firstBadStatus = null;
const started = performance.now();
const until = started + seconds * 1000;

async function loop() {
  while (performance.now() < until) {
    const res = await pool.request({ method: 'GET', path, headers });
    await res.body.arrayBuffer();
    if (res.statusCode === 200) requests++;
    else {
      bad++;
      firstBadStatus ??= res.statusCode;
    }
  }
}

await Promise.all(Array.from({ length: connections }, loop));
const elapsed = (performance.now() - started) / 1000;
await pool.close();
process.send({ requests, bad, seconds: elapsed, firstBadStatus }, () => process.exit(0));
