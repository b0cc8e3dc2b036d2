import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string>;
  body: string;
}
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** A real HTTP endpoint on 127.0.0.1 that records what it receives and answers from a script. */
export async function startReceiver() {
  const received: Received[] = [];
  const script: Reply[] = [];
  let fallback: Reply = { status: 200, body: 'ok' };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      const reply = script.shift() ?? fallback;
      res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers });
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    received,
    /** The next replies, in order; afterwards `always` (default 200). */
    reply(...replies: Reply[]) {
      script.push(...replies);
    },
    always(reply: Reply) {
      fallback = reply;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** A clock tests can move forward. */
export function manualClock(start = Date.now()) {
  let t = start;
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
    get ms() {
      return t;
    },
  };
}
