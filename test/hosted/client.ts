// A device's side of the wire protocol, for tests: link, join, push, pull, blobs.
import { v4 as uuidv4 } from 'uuid';
import { formatStamp, tick, type HlcState } from '../../server/sync/hlc.js';
import type { Change, Enrolment } from '../../server/sync/protocol.js';

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export async function call<T = any>(base: string, method: string, path: string, opts: { token?: string; body?: unknown; raw?: Uint8Array<ArrayBuffer> | Buffer; headers?: Record<string, string> } = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: BodyInit | undefined;
  if (opts.raw) body = new Uint8Array(opts.raw);
  else if (opts.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = method === 'HEAD' ? '' : await res.text();
  const parsed = (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
  return { status: res.status, body: parsed as T, headers: res.headers };
}

let n = 0;
export function linkInput(overrides: Partial<{ email: string; password: string; entityId: string; entityName: string; deviceName: string }> = {}) {
  n += 1;
  return { email: `owner${n}-${Date.now()}@example.com`, password: 'correct horse battery staple', entityId: uuidv4(), entityName: `Entity ${n}`, deviceName: `Desktop ${n}`, ...overrides };
}

/** A device: its token and its own hybrid logical clock. */
export class Device {
  private clock: HlcState;
  constructor(
    readonly base: string,
    readonly enrolment: Enrolment,
    private now: () => number = Date.now,
  ) {
    this.clock = { wallMs: 0, counter: 0, node: enrolment.deviceId.replace(/-/g, '') };
  }
  get token() {
    return this.enrolment.deviceToken;
  }
  stamp(): string {
    this.clock = tick(this.clock, this.now());
    return formatStamp(this.clock);
  }
  change(table: string, rowId: string, columns: Record<string, unknown>, op: Change['op'] = 'upsert', expect?: Record<string, unknown>): Change {
    return { id: uuidv4(), table, rowId, op, columns: columns as Change['columns'], ...(expect ? { expect: expect as Change['columns'] } : {}), hlc: this.stamp(), schemaVersion: 1 };
  }
  push(changes: Change[]) {
    return call(this.base, 'POST', '/sync/v1/push', { token: this.token, body: { changes } });
  }
  pull(cursor = 0, extra = '') {
    return call(this.base, 'GET', `/sync/v1/pull?cursor=${cursor}${extra}`, { token: this.token });
  }
  /** Every change of the log, following the cursor. */
  async pullAll(cursor = 0) {
    const all: any[] = [];
    for (;;) {
      const res = await this.pull(cursor);
      if (res.status !== 200) throw new Error(`pull ${res.status} ${JSON.stringify(res.body)}`);
      all.push(...res.body.changes);
      cursor = res.body.cursor;
      if (!res.body.hasMore) return { changes: all, cursor };
    }
  }
}

export async function link(base: string, input = linkInput()): Promise<{ device: Device; input: ReturnType<typeof linkInput> }> {
  const res = await call<Enrolment>(base, 'POST', '/sync/v1/link', { body: input });
  if (res.status !== 201) throw new Error(`link ${res.status} ${JSON.stringify(res.body)}`);
  return { device: new Device(base, res.body), input };
}
