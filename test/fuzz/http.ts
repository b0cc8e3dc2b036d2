import http from 'node:http';

/**
 * One raw HTTP exchange. The fuzz uses node:http rather than fetch: it sends the path exactly
 * as given (no URL normalisation of `%`, `..` or `%2e`), allows a body on GET and DELETE, and
 * repeats headers on demand.
 */
export interface RawRequest {
  method: string;
  /** Path and query, sent verbatim (must be ASCII). */
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
}

export type RawResult =
  | { kind: 'response'; status: number; headers: http.IncomingHttpHeaders; /** Total body size in bytes. */ size: number; /** At most the first `keep` bytes. */ body: Buffer; ms: number }
  | { kind: 'error'; error: string; ms: number };

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** Body bytes kept for inspection; the total size is counted in full. */
const KEEP_BYTES = 256 * 1024;

/**
 * Sends one request. A keep-alive socket the server closed just as it was reused fails with
 * ECONNRESET before the server saw anything: that attempt is retried once on a new socket, as
 * Node's documentation advises (`request.reusedSocket`).
 */
export async function send(baseUrl: string, r: RawRequest, timeoutMs = 20_000): Promise<RawResult> {
  const first = await attempt(baseUrl, r, timeoutMs);
  if (first.kind === 'error' && first.retryable) {
    const second = await attempt(baseUrl, r, timeoutMs);
    return second.kind === 'error' ? { ...second, error: `${first.error} on a reused socket, then ${second.error}` } : second;
  }
  return first;
}

function attempt(baseUrl: string, r: RawRequest, timeoutMs: number): Promise<RawResult & { retryable?: boolean }> {
  const started = Date.now();
  const url = new URL(baseUrl);
  return new Promise((resolve) => {
    let settled = false;
    const done = (result: RawResult & { retryable?: boolean }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const headers: Record<string, string | string[] | number> = { ...r.headers };
    if (r.body) headers['content-length'] = r.body.length;
    let req: http.ClientRequest;
    try {
      req = http.request({ host: url.hostname, port: url.port, method: r.method, path: r.path, headers, agent });
    } catch (err) {
      // A request node itself refuses to send is a bug in the case, not in the server.
      throw new Error(`cannot send ${r.method} ${r.path}: ${(err as Error).message}`);
    }
    const timer = setTimeout(() => {
      req.destroy();
      done({ kind: 'error', error: `no response within ${timeoutMs} ms`, ms: Date.now() - started });
    }, timeoutMs);
    let responded = false;
    req.on('error', (err: NodeJS.ErrnoException) =>
      done({ kind: 'error', error: `${err.code ?? ''} ${err.message}`.trim(), ms: Date.now() - started, retryable: req.reusedSocket && !responded && err.code === 'ECONNRESET' }),
    );
    req.on('response', (res) => {
      responded = true;
      // Server-sent events never end: the status and headers are the answer.
      if ((res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
        res.destroy();
        req.destroy();
        done({ kind: 'response', status: res.statusCode ?? 0, headers: res.headers, size: 0, body: Buffer.alloc(0), ms: Date.now() - started });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let kept = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (kept < KEEP_BYTES) {
          chunks.push(c);
          kept += c.length;
        }
      });
      res.on('end', () => done({ kind: 'response', status: res.statusCode ?? 0, headers: res.headers, size, body: Buffer.concat(chunks).subarray(0, KEEP_BYTES), ms: Date.now() - started }));
      res.on('error', (err) => done({ kind: 'error', error: `response aborted: ${err.message}`, ms: Date.now() - started }));
    });
    req.end(r.body);
  });
}

/** Drops idle keep-alive sockets (after the server was restarted). */
export function resetConnections() {
  agent.destroy();
}
