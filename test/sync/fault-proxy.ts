// A fault-injecting HTTP proxy between one device and the hosted instance, steered by the
// simulation: partitions, dropped requests, responses dropped after the hosted instance
// committed (the device sees a failure though its push was applied), duplicated pushes,
// delays, and requests held back to arrive later (reordered behind newer ones).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Which requests a one-shot fault applies to. */
export type FaultTarget = 'push' | 'pull' | 'blob' | 'any';

export type FaultKind =
  /** Not forwarded; the device's connection is cut. */
  | 'dropRequest'
  /** Forwarded and answered by the hosted instance; the answer never reaches the device. */
  | 'dropResponse'
  /** Forwarded twice at once; the device gets one answer. */
  | 'duplicate'
  /** Forwarded again after the answer, the second answer discarded. */
  | 'duplicateAfter'
  /** Forwarded after a pause (reorders concurrent cycles of several devices). */
  | 'delay'
  /** Not forwarded now (the device sees a cut connection); sent by a later `releaseHeld()`. */
  | 'hold'
  /** Forwarded now, and a copy sent again by a later `releaseHeld()` (a stale duplicate). */
  | 'replayLater';

export interface Fault {
  kind: FaultKind;
  target: FaultTarget;
  /** For `delay`. */
  ms?: number;
  /** Matching requests to let through before this one. */
  skip?: number;
}

interface Captured {
  method: string;
  path: string;
  headers: http.OutgoingHttpHeaders;
  body: Buffer;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'host', 'content-length'];

function kindOf(method: string, path: string): FaultTarget {
  if (path.startsWith('/sync/v1/push')) return 'push';
  if (path.startsWith('/sync/v1/pull')) return 'pull';
  if (path.startsWith('/sync/v1/blobs/')) return 'blob';
  return method === 'GET' ? 'pull' : 'any';
}

export class FaultProxy {
  private server!: http.Server;
  url = '';
  partitioned = false;
  /** One-shot faults, each used by the first request it matches. */
  private armed: Fault[] = [];
  private held: Captured[] = [];
  private inFlight = new Set<Promise<unknown>>();
  /** What happened, for the failure report. */
  readonly log: string[] = [];
  /** Every request that reached the proxy (`GET /sync/v1/snapshot`), faulted or not. */
  readonly requests: string[] = [];

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const done = this.handle(req, res).catch(() => req.socket.destroy());
      this.track(done);
    });
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private track(p: Promise<unknown>) {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  private passthrough = false;

  /** Runs `use` with every fault suspended (a request the simulation makes for its own setup). */
  async unfaulted<T>(use: () => Promise<T>): Promise<T> {
    this.passthrough = true;
    try {
      return await use();
    } finally {
      this.passthrough = false;
    }
  }

  arm(fault: Fault) {
    this.armed.push(fault);
  }

  /** Faults off: no partition, nothing armed (held requests stay until released). */
  heal() {
    this.partitioned = false;
    this.armed = [];
  }

  get heldCount() {
    return this.held.length;
  }

  /** Sends every held request to the hosted instance now, oldest first; answers are discarded. */
  async releaseHeld(): Promise<void> {
    const held = this.held;
    this.held = [];
    for (const c of held) {
      const answer = await this.forward(c);
      this.log.push(`released ${c.method} ${c.path.split('?')[0]} → ${answer.status}`);
    }
  }

  /** Waits for every request in progress (delayed or duplicated ones included). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Forgets everything of the previous run. */
  reset() {
    this.heal();
    this.held = [];
    this.log.length = 0;
  }

  async close(): Promise<void> {
    await this.idle();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(req.headers)) if (!HOP_BY_HOP.includes(k) && v !== undefined) headers[k] = v;
    const captured: Captured = { method, path, headers, body: Buffer.concat(chunks) };
    const what = `${method} ${path.split('?')[0]}`;
    this.requests.push(what);

    if (this.passthrough) return this.reply(res, await this.forward(captured));
    if (this.partitioned) {
      this.log.push(`partitioned: ${what}`);
      req.socket.destroy();
      return;
    }
    const kind = kindOf(method, path);
    const i = this.armed.findIndex((f) => f.target === 'any' || f.target === kind);
    let fault = i >= 0 ? this.armed[i] : undefined;
    if (fault?.skip) {
      this.armed[i] = { ...fault, skip: fault.skip - 1 };
      fault = undefined;
    } else if (fault) this.armed.splice(i, 1);
    if (fault) this.log.push(`${fault.kind}: ${what}`);

    switch (fault?.kind) {
      case 'dropRequest':
        req.socket.destroy();
        return;
      case 'hold':
        this.held.push(captured);
        req.socket.destroy();
        return;
      case 'dropResponse':
        await this.forward(captured);
        req.socket.destroy();
        return;
      case 'duplicate': {
        const [first] = await Promise.all([this.forward(captured), this.forward(captured)]);
        return this.reply(res, first);
      }
      case 'duplicateAfter': {
        const first = await this.forward(captured);
        this.reply(res, first);
        await this.forward(captured);
        return;
      }
      case 'delay':
        await new Promise((r) => setTimeout(r, fault.ms ?? 20));
        return this.reply(res, await this.forward(captured));
      case 'replayLater':
        this.held.push(captured);
        return this.reply(res, await this.forward(captured));
      default:
        return this.reply(res, await this.forward(captured));
    }
  }

  private reply(res: http.ServerResponse, answer: Answer) {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(answer.headers)) if (!HOP_BY_HOP.includes(k) && v !== undefined) headers[k] = v;
    headers['content-length'] = answer.body.length;
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  }

  private forward(c: Captured): Promise<Answer> {
    return new Promise<Answer>((resolve, reject) => {
      const headers = { ...c.headers, 'content-length': c.body.length };
      const out = http.request({ host: this.target.host, port: this.target.port, method: c.method, path: c.path, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      out.on('error', reject);
      out.end(c.body);
    });
  }
}
