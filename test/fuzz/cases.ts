import zlib from 'node:zlib';
import fc from 'fast-check';
import { draw, jsonType, type GenContext, type JsonSchema, type OpenApiDoc, type OpenApiOperation, type OpenApiParameter, type SchemaResolver } from './schema.js';
import { seededRng } from '../helpers/rng.js';

/** Replaced by the server's current origin when the request is sent (the port changes on restart). */
export const ORIGIN = '<origin>';

/** The desktop fuzz acts as a session or an API key; the hosted one as a device token or no one. */
export type IdentityName = 'session' | 'apiKey' | 'device' | 'public';

export interface Identity {
  name: IdentityName;
  headers: Record<string, string>;
  /** Well-formed credentials that no longer work (a revoked device's token), sent as bad credentials. */
  revoked?: string[];
}

export interface Operation {
  /** `GET /api/helpdesk/tickets/{ticketId}` */
  key: string;
  method: string;
  path: string;
  spec: OpenApiOperation;
  pathParams: OpenApiParameter[];
  queryParams: OpenApiParameter[];
  body?: JsonSchema;
  /** Takes a raw PDF or multipart/form-data (POST /api/documents). */
  upload: boolean;
}

export interface FuzzCase {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string | string[]>;
  body?: Buffer;
  /** Send this many identical copies at once (races between a check and a write). */
  concurrent?: number;
}

/** Every operation of the document, in document order. */
export function operationsOf(doc: OpenApiDoc): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, spec] of Object.entries(methods)) {
      const params = spec.parameters ?? [];
      ops.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        spec,
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        body: spec.requestBody?.content['application/json']?.schema,
        upload: /multipart\/form-data/.test(spec.description ?? '') && '415' in (spec.responses ?? {}),
      });
    }
  }
  return ops;
}


export function hashSeed(...parts: (string | number)[]): number {
  let h = 2166136261;
  for (const ch of parts.join('|')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

// ---- nasty values ---------------------------------------------------------------------------

/** A PNG data URL cut inside its header: magic bytes and half an IHDR. */
export const TRUNCATED_PNG_DATA_URL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB';

/** For string leaves inside arrays and objects (signature values, signer e-mails, …). */
const NESTED_ODD: readonly string[] = [TRUNCATED_PNG_DATA_URL, '\u0000\ud800\u202e', 'x'.repeat(100_000)];

export const ODD_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202eevil\u202c',
  '\u200f\u200e\u061c',
  '\ufeff',
  '\u200b\u200d\u2060',
  'Z\u0351\u0352\u0353\u0354\u0355\u0356\u0357\u0358\u0359\u035a',
  '𝕳𝖊𝖑𝖑𝖔 👩‍👩‍👧‍👦',
  '\r\nX-Injected: 1',
  '../../../../etc/passwd',
  "' OR 1=1 --",
  '%E0%A4%A',
  '<script>alert(1)</script>',
  '__proto__',
  TRUNCATED_PNG_DATA_URL,
];

export const BAD_UUIDS: readonly string[] = [
  'not-a-uuid',
  '00000000-0000-0000-0000-00000000000g',
  '0190b1c2-0000-7000-8000-00000000000',
  '{0190b1c2-0000-7000-8000-000000000000}',
  ' 0190b1c2-0000-7000-8000-000000000000 ',
  '0190b1c200007000800000000000000',
  '1',
  '\u0000',
];

const SPECIAL_NUMBERS: readonly number[] = [-1, 0, 1.5, 1e308, -1e308, 2 ** 53 + 2, 5e-324, -0];

/** Path segments, already percent-encoded as they go on the wire. */
export const BAD_SEGMENTS: readonly string[] = [
  '%',
  '%E0%A4%A',
  '%ZZ',
  '%00',
  '%FF',
  '%C0%80',
  '%ED%A0%80',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  '..',
  '%2e%2e%2F%2e%2e',
  '%E2%80%AE%F0%9F%98%80',
  'a'.repeat(5000),
];

const MB = 1024 * 1024;

export function deepArray(depth: number): string {
  return '['.repeat(depth) + ']'.repeat(depth);
}
export function deepObject(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** Percent-encodes every byte of the UTF-8 form except unreserved characters (never throws). */
export function pct(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

// ---- case generation ------------------------------------------------------------------------

export interface CaseOptions {
  resolver: SchemaResolver;
  gen: GenContext;
  seed: number;
  /** Random mutation cases per operation and identity. */
  runs: number;
  /** A small real PDF for upload routes. */
  pdf: Buffer;
  /**
   * Also break every leaf of the body, however deep (NUL and lone surrogates in strings, numbers
   * beyond 32 bits), one at a time with the rest valid-ish: what reaches a database column.
   */
  deepLeaves?: boolean;
  /** Request bodies known to succeed: the bases deepLeaves breaks (default: the drawn bodies with the most leaves). */
  examples?: unknown[];
}

/** For strings nested at any depth (deepLeaves): what PostgreSQL refuses to store. */
const DEEP_ODD_STRINGS: readonly string[] = ['a\u0000b', 'x\ud800y', '\udfff', '\u0000\ud800\u202e'];
/** For numbers nested at any depth (deepLeaves): past 32 and 53 bits, fractions, huge. */
const DEEP_NUMBERS: readonly number[] = [2 ** 31, 2 ** 53 - 1, -(2 ** 31) - 1, 1.5, 1e308];

/** Every string and number leaf of a JSON object, at any depth, with its path. */
function leavesOf(v: unknown, path: (string | number)[] = []): { path: (string | number)[]; value: string | number }[] {
  if (typeof v === 'string' || typeof v === 'number') return path.length ? [{ path, value: v }] : [];
  if (Array.isArray(v)) return v.slice(0, 2).flatMap((x, i) => leavesOf(x, [...path, i]));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => leavesOf(x, [...path, k]));
  return [];
}

/** Gives every `id` that holds a UUID a new one: a client-chosen id is an idempotency key, and a replay would hide the case. */
function freshIds(v: unknown, next: () => string): void {
  if (Array.isArray(v)) v.forEach((x) => freshIds(x, next));
  else if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    for (const [k, x] of Object.entries(o)) {
      if (k === 'id' && typeof x === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(x)) o[k] = next();
      else freshIds(x, next);
    }
  }
}

function setAt(root: unknown, path: (string | number)[], value: unknown): void {
  let at = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) at = at[step] as Record<string | number, unknown>;
  at[path[path.length - 1]] = value;
}

/**
 * All requests for one operation as one identity: a few valid-ish ones, then every
 * deterministic mutation (missing/extra/wrong-typed/null/huge/deep/odd fields, bad ids and
 * percent-encoding in the path, duplicated and malformed query parameters, malformed JSON,
 * wrong content types and encodings, broken uploads, bad credentials), then `runs` random ones.
 */
export function casesFor(op: Operation, identity: Identity, o: CaseOptions): FuzzCase[] {
  const resolver = o.resolver;
  const rng = seededRng(hashSeed(o.seed, op.key, identity.name));
  const g = o.gen;
  const cases: FuzzCase[] = [];

  const pathValues: Record<string, string> = {};
  for (const p of op.pathParams) pathValues[p.name] = pct(g.ids[p.name] ?? String(draw(resolver.validish(p.schema, g, p.name), rng.seed())));
  const buildPath = (over: Record<string, string> = {}) => op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => over[name] ?? pathValues[name] ?? 'x');

  const queryArbs = new Map(op.queryParams.map((p) => [p.name, resolver.validish(p.schema, g, p.name)]));
  const queryValue = (p: OpenApiParameter): string => {
    const v = p.name === 'entityId' ? g.ids.entityId : draw(queryArbs.get(p.name)!, rng.seed());
    return typeof v === 'string' ? v : JSON.stringify(v);
  };
  const baseQuery = (): string[] => {
    const parts: string[] = [];
    for (const p of op.queryParams) {
      if (p.required || p.name === 'entityId' || rng.next() < 0.4) parts.push(`${pct(p.name)}=${pct(queryValue(p))}`);
    }
    return parts;
  };
  const withQuery = (path: string, parts: string[]) => (parts.length ? `${path}?${parts.join('&')}` : path);

  // A few valid-ish bodies, drawn once (building and sampling arbitraries of long patterns is slow);
  // every mutation starts from a fresh copy of one of them.
  const bodies = op.body ? fc.sample(resolver.validish(op.body, g), { seed: rng.seed(), numRuns: 8 }) : [];
  const baseBody = (): unknown => (bodies.length ? structuredClone(bodies[rng.int(0, bodies.length)]) : undefined);
  const jsonHeaders = { ...identity.headers, 'content-type': 'application/json' };

  const add = (label: string, c: Partial<FuzzCase> & { body?: Buffer }) => {
    cases.push({ label, method: c.method ?? op.method, path: c.path ?? withQuery(buildPath(), baseQuery()), headers: c.headers ?? (c.body ? jsonHeaders : identity.headers), body: c.body, concurrent: c.concurrent });
  };
  const addJson = (label: string, value: unknown) => add(label, { body: Buffer.from(JSON.stringify(value) ?? 'null') });
  const addRaw = (label: string, text: string | Buffer, headers: Record<string, string | string[]> = jsonHeaders) =>
    add(label, { body: typeof text === 'string' ? Buffer.from(text) : text, headers });

  if (o.deepLeaves && bodies.length) {
    // First, while one-shot operations (sign, join with a code) are still fresh. Bodies that succeed reach the database with the one broken leaf; else the two drawn bodies with the most leaves.
    const bases = o.examples?.length ? o.examples : [...bodies].sort((a, b) => leavesOf(b).length - leavesOf(a).length).slice(0, 2);
    bases.forEach((base, n) => {
      for (const { path, value } of leavesOf(base)) {
        for (const bad of typeof value === 'string' ? DEEP_ODD_STRINGS : DEEP_NUMBERS) {
          const copy = structuredClone(base);
          freshIds(copy, () => draw(fc.uuid(), rng.seed()));
          setAt(copy, path, bad);
          addJson(`leaf of body #${n} ${path.join('.')} := ${JSON.stringify(bad)}`, copy);
        }
      }
    });
  }
  // 1. Body mutations, from the JSON schema.
  if (op.body) {
    const schema = resolver.resolve(op.body);
    const objectVariants = resolver.variants(schema).filter((v) => v.properties);
    const props: Record<string, JsonSchema> = Object.assign({}, ...objectVariants.map((v) => v.properties));
    const required = [...new Set(objectVariants.flatMap((v) => v.required ?? []))];
    const obj = (): Record<string, unknown> => {
      const b = baseBody();
      return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
    };
    const keysOf = (pred: (s: JsonSchema, k: string) => boolean) => Object.keys(props).filter((k) => pred(props[k], k));
    const typesOf = (k: string) => resolver.types(props[k]);
    const stringKeys = keysOf((_s, k) => typesOf(k).has('string') || typesOf(k).has('any'));
    const uuidKeys = keysOf((s) => resolver.variants(s).some((v) => v.format === 'uuid'));
    const numberKeys = keysOf((_s, k) => typesOf(k).has('number'));
    const arrayKeys = keysOf((_s, k) => typesOf(k).has('array'));
    const openKeys = keysOf((s, k) => typesOf(k).has('any') || resolver.variants(s).some((v) => v.type === 'object' && !v.properties));

    for (const k of required) {
      const b = obj();
      delete b[k];
      addJson(`missing required ${k}`, b);
    }
    addJson('empty object', {});
    addJson('extra field', { ...obj(), zzUnknownField: 'x' });
    addRaw('extra __proto__ field', JSON.stringify(obj()).replace(/^\{/, '{"__proto__":{"isAdmin":true,"role":"owner"},').replace(/,\}$/, '}'));
    addJson('extra constructor.prototype field', { ...obj(), constructor: { prototype: { isAdmin: true } } });
    for (const k of Object.keys(props)) {
      const t = typesOf(k);
      if (t.has('any')) continue;
      const wrong = !t.has('number') ? 12345 : !t.has('string') ? '12' : !t.has('object') ? { nested: true } : [1];
      addJson(`wrong type ${k}=${JSON.stringify(wrong)}`, { ...obj(), [k]: wrong });
      if (!t.has('boolean')) addJson(`wrong type ${k}=true`, { ...obj(), [k]: true });
      if (!t.has('null')) addJson(`null ${k}`, { ...obj(), [k]: null });
    }
    for (const k of stringKeys.slice(0, 4)) addJson(`1 MB string in ${k}`, { ...obj(), [k]: 'A'.repeat(MB - 4096) });
    if (stringKeys.length) addJson(`300k RTL marks in ${stringKeys[0]}`, { ...obj(), [stringKeys[0]]: '\u202e'.repeat(300_000) });
    addJson('body over the 1 MB limit', { ...obj(), zzPad: 'x'.repeat(2 * MB) });
    for (const k of [...openKeys.slice(0, 2), ...Object.keys(props).filter((k) => !openKeys.includes(k)).slice(0, 1)]) {
      const b = obj();
      delete b[k];
      const head = JSON.stringify({ ...b, [k]: 0 }).slice(0, -2);
      if (head.endsWith(':')) {
        addRaw(`10k-deep array in ${k}`, `${head}${deepArray(10_000)}}`);
        addRaw(`10k-deep object in ${k}`, `${head}${deepObject(10_000)}}`);
      }
    }
    ODD_STRINGS.forEach((s, i) => {
      if (stringKeys.length) addJson(`odd string #${i} ${JSON.stringify(s)} in all string fields`, { ...obj(), ...Object.fromEntries(stringKeys.map((k) => [k, s])) });
    });
    for (const bad of BAD_UUIDS) {
      if (uuidKeys.length) addJson(`bad uuid ${JSON.stringify(bad)} in ${uuidKeys.join(',')}`, { ...obj(), ...Object.fromEntries(uuidKeys.map((k) => [k, bad])) });
    }
    for (const n of SPECIAL_NUMBERS) {
      if (numberKeys.length) addJson(`number ${n} in ${numberKeys.join(',')}`, { ...obj(), ...Object.fromEntries(numberKeys.map((k) => [k, n])) });
    }
    if (numberKeys.length) addRaw(`huge number literal in ${numberKeys[0]}`, JSON.stringify({ ...obj(), [numberKeys[0]]: 0 }).replace(new RegExp(`"${numberKeys[0]}":0`), `"${numberKeys[0]}":${'9'.repeat(400)}`));
    for (const k of arrayKeys) {
      const itemTypes = resolver.types(resolver.variants(props[k]).find((v) => v.type === 'array')?.items);
      const invalid = itemTypes.has('number') ? 'not-a-number' : 7;
      addJson(`10,000 invalid items in ${k}`, { ...obj(), [k]: new Array(10_000).fill(invalid) });
      addJson(`10,000 nulls in ${k}`, { ...obj(), [k]: new Array(10_000).fill(null) });
    }
    // Nested fields (arrays of objects, objects): break one leaf at a time.
    for (const k of Object.keys(props)) {
      const b = obj();
      const v = b[k];
      const nested = Array.isArray(v) && v.length && typeof v[0] === 'object' && v[0] ? (v[0] as Record<string, unknown>) : v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
      if (!nested) continue;
      for (const leaf of Object.keys(nested).slice(0, 6)) {
        const isString = jsonType(nested[leaf]) === 'string';
        for (const value of isString ? [{ x: 1 }, ...NESTED_ODD] : ['\u0000\ud800', null]) {
          const copy = structuredClone(b);
          const target = Array.isArray(copy[k]) ? (copy[k] as Record<string, unknown>[])[0] : (copy[k] as Record<string, unknown>);
          target[leaf] = value;
          addJson(`nested ${k}.${leaf} := ${JSON.stringify(value).slice(0, 40)}`, copy);
        }
      }
    }
  }
  // Top-level JSON that is not the expected object (also for routes that take no body).
  for (const v of [null, [], 'string', 0, true, [obj0(baseBody())]]) addJson(`body ${JSON.stringify(v).slice(0, 30)}`, v);
  if (!op.body) addJson('unexpected JSON body', { zzUnknownField: 'x', entityId: g.ids.entityId });
  addRaw('10k-deep array body', deepArray(10_000));
  addRaw('10k-deep object body', deepObject(10_000));

  // 3. Broken encodings of the body.
  const json = Buffer.from(JSON.stringify(obj0(baseBody())));
  for (const [label, text] of [
    ['malformed JSON: truncated', '{"a":'],
    ['malformed JSON: trailing comma', '{"a":1,}'],
    ['malformed JSON: single quotes', "{'a':1}"],
    ['malformed JSON: trailing garbage', '{}garbage'],
    ['malformed JSON: raw NUL in string', '{"a":"\u0000"}'],
    ['malformed JSON: BOM', '\ufeff{}'],
    ['malformed JSON: unterminated 10k-deep', '['.repeat(10_000)],
    ['malformed JSON: empty', ''],
    ['duplicate keys', '{"entityId":"x","entityId":"y","entityId":null}'],
  ] as const) {
    addRaw(label, text);
  }
  addRaw('malformed JSON: invalid UTF-8', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]));
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'application/json; charset=utf-16', 'application/json; charset=bogus', 'multipart/form-data', 'application/vnd.api+json', '']) {
    addRaw(`content-type ${JSON.stringify(type)}`, type.startsWith('application/x-www') ? 'entityId=x&entityId=y&a[b]=c' : json, { ...identity.headers, 'content-type': type });
  }
  const garbage = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02, 0x03]);
  for (const enc of ['gzip', 'deflate', 'br', 'x-unknown', 'gzip, gzip']) addRaw(`content-encoding ${enc} with undecodable bytes`, garbage, { ...jsonHeaders, 'content-encoding': enc });
  addRaw('content-encoding gzip (valid)', zlib.gzipSync(json), { ...jsonHeaders, 'content-encoding': 'gzip' });
  addRaw('content-encoding gzip bomb (10 MB of zeros)', zlib.gzipSync(Buffer.alloc(10 * MB, 0x20)), { ...jsonHeaders, 'content-encoding': 'gzip' });

  // 4. Uploads (raw PDF or multipart).
  if (op.upload) {
    const boundary = '----fuzzboundary7MA4YWxkTrZu0gW';
    const part = (name: string, content: string | Buffer, filename?: string) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n${filename ? 'Content-Type: application/pdf\r\n' : ''}\r\n`), Buffer.from(content), Buffer.from('\r\n')]);
    const end = Buffer.from(`--${boundary}--\r\n`);
    const multipart = { ...identity.headers, 'content-type': `multipart/form-data; boundary=${boundary}` };
    const full = Buffer.concat([part('name', 'Fuzzed.pdf'), part('file', o.pdf, 'fuzz.pdf'), end]);
    addRaw('multipart upload (valid)', full, multipart);
    addRaw('truncated multipart upload', full.subarray(0, Math.floor(full.length / 2)), multipart);
    addRaw('truncated multipart: headers only', part('file', '', 'fuzz.pdf').subarray(0, 80), multipart);
    addRaw('multipart without closing boundary', Buffer.concat([part('file', o.pdf, 'fuzz.pdf')]), multipart);
    addRaw('multipart without boundary parameter', full, { ...identity.headers, 'content-type': 'multipart/form-data' });
    addRaw('multipart with a different boundary', full, { ...identity.headers, 'content-type': 'multipart/form-data; boundary=nope' });
    addRaw('multipart without a file part', Buffer.concat([part('name', 'x'), end]), multipart);
    addRaw('multipart with two file parts', Buffer.concat([part('file', o.pdf, 'a.pdf'), part('file', o.pdf, 'b.pdf'), end]), multipart);
    addRaw('multipart with 50 fields', Buffer.concat([...Array.from({ length: 50 }, (_, i) => part(`f${i}`, 'v')), part('file', o.pdf, 'a.pdf'), end]), multipart);
    addRaw('multipart with odd name and folderId', Buffer.concat([part('name', '\u0000\u202e'.repeat(200)), part('folderId', '%E0%A4%A'), part('file', o.pdf, '\u202e.pdf'), end]), multipart);
    addRaw('multipart with a non-PDF file', Buffer.concat([part('file', 'hello', 'x.pdf'), end]), multipart);
    addRaw('multipart gzip-encoded garbage', garbage, { ...multipart, 'content-encoding': 'gzip' });
    const pdfHeaders = { ...identity.headers, 'content-type': 'application/pdf' };
    addRaw('raw PDF: empty', Buffer.alloc(0), pdfHeaders);
    addRaw('raw PDF: garbage', Buffer.from('%PDF-1.7\n\u0000garbage'), pdfHeaders);
    addRaw('raw PDF: truncated', o.pdf.subarray(0, Math.floor(o.pdf.length / 2)), pdfHeaders);
    addRaw('raw PDF: x-filename with bad percent-encoding', o.pdf, { ...pdfHeaders, 'x-filename': '%E0%A4%A' });
    addRaw('raw PDF: content-disposition with bad filename*', o.pdf, { ...pdfHeaders, 'content-disposition': "attachment; filename*=UTF-8''%E0%A4%A%" });
    add('raw PDF: name and folderId query mutations', { path: `${buildPath()}?name=${'n'.repeat(300)}&folderId=%E0%A4%A`, headers: pdfHeaders, body: o.pdf });
    add('raw PDF: duplicated name query', { path: `${buildPath()}?name=a&name=b&folderId=${g.ids.folderId}&folderId=${g.ids.folderId}`, headers: pdfHeaders, body: o.pdf });
    addRaw('raw PDF: gzip garbage', garbage, { ...pdfHeaders, 'content-encoding': 'gzip' });
  }

  // 5. Path parameters.
  for (const p of op.pathParams) {
    for (const seg of BAD_SEGMENTS) add(`path ${p.name}=${seg.slice(0, 40)}`, { path: buildPath({ [p.name]: seg }) });
    add(`path ${p.name}=random uuid`, { path: buildPath({ [p.name]: draw(fc.uuid(), rng.seed()) }) });
    if (g.ids[p.name]) add(`path ${p.name}=uppercase id`, { path: buildPath({ [p.name]: g.ids[p.name].toUpperCase() }) });
  }
  if (op.pathParams.length) add('path with trailing slash and dot segments', { path: `${buildPath()}/./../` });

  // 6. Query parameters.
  const plain = buildPath();
  for (const p of op.queryParams) {
    const n = pct(p.name);
    const v1 = pct(queryValue(p));
    const v2 = pct(queryValue(p));
    for (const [label, q] of [
      ['duplicated', `${n}=${v1}&${n}=${v2}`],
      ['array', `${n}[]=${v1}`],
      ['object', `${n}[a]=${v1}&${n}[b][c]=1`],
      ['malformed %', `${n}=%`],
      ['malformed %E0%A4%A', `${n}=%E0%A4%A`],
      ['NUL', `${n}=%00`],
      ['encoded lone surrogate', `${n}=%ED%A0%80`],
      ['empty', `${n}=`],
      ['8k value', `${n}=${'a'.repeat(8000)}`],
      ['wrong type', `${n}=${resolver.types(p.schema).has('string') ? '12' : 'abc'}`],
      ['huge number', `${n}=1e999`],
    ] as const) {
      add(`query ${p.name} ${label}`, { path: `${plain}?${q}` });
    }
  }
  const mine = pct(g.ids.entityId);
  for (const [label, q] of [
    ['status duplicated', 'status=open&status=closed'],
    ['entityId duplicated', `entityId=${mine}&entityId=${mine}`],
    ['entityId array', `entityId[]=${mine}`],
    ['entityId object', `entityId[$ne]=x`],
    ['entityId malformed', 'entityId=%E0%A4%A'],
    ['entityId not a uuid', 'entityId=not-a-uuid'],
    ['entityId other', `entityId=${draw(fc.uuid(), rng.seed())}`],
    ['__proto__', '__proto__[isAdmin]=1&constructor[prototype][isAdmin]=1'],
    ['deep brackets', 'a[b][c][d][e][f][g][h][i][j]=1'],
    ['sparse array index', 'a[99999]=1'],
    ['1100 parameters', Array.from({ length: 1100 }, (_, i) => `p${i}=${i}`).join('&')],
    ['separators only', '&&&==&=&%&'],
    ['malformed % key', '%E0%A4%A=1&%=2'],
  ] as const) {
    add(`query ${label}`, { path: `${plain}?${q}` });
  }

  // 7. Credentials and headers.
  if (identity.name === 'session') {
    const withoutAuth = Object.fromEntries(Object.entries(identity.headers).filter(([k]) => k !== 'cookie'));
    for (const cookie of ['bureau_session=%E0%A4%A', 'bureau_session=%', 'bureau_session=', 'bureau_session=a; bureau_session=b', `bureau_session=${'x'.repeat(4000)}`, '=; ;;bureau_session']) {
      add(`cookie ${JSON.stringify(cookie.slice(0, 40))}`, { headers: { ...withoutAuth, cookie } });
    }
    for (const e of ['not-a-uuid', '%E0%A4%A', '', 'x'.repeat(8000)]) add(`x-entity-id ${JSON.stringify(e.slice(0, 30))}`, { headers: { ...identity.headers, 'x-entity-id': e } });
    add('x-entity-id twice', { headers: { ...identity.headers, 'x-entity-id': [g.ids.entityId, draw(fc.uuid(), rng.seed())] } });
    add('origin from elsewhere', { headers: { ...identity.headers, origin: 'http://evil.example' } });
    add('origin "null"', { headers: { ...identity.headers, origin: 'null' } });
  } else if (identity.name === 'device' || identity.name === 'public') {
    // Device tokens: malformed, unknown, revoked; on a public route any of them must change nothing.
    const dt = ['Bearer', 'Bearer dt_', `Bearer dt_${'x'.repeat(8000)}`, `Bearer dt_${'x'.repeat(43)}`, 'Basic Zm9vOmJhcg==', 'Bearer dt_\u00ff\u00fe', 'Bearer  dt_a dt_b', 'Bearer ak_x', ...(identity.revoked ?? []).map((t) => `Bearer ${t}`)];
    dt.forEach((a, i) => add(`authorization #${i} ${JSON.stringify(a.slice(0, 30))}`, { headers: { ...identity.headers, authorization: a } }));
    add('authorization twice', { headers: { ...identity.headers, authorization: [identity.headers.authorization ?? 'Bearer dt_x', `Bearer dt_${'y'.repeat(43)}`] } });
  } else {
    for (const a of ['Bearer', 'Bearer ak_', `Bearer ak_${'x'.repeat(8000)}`, 'Basic Zm9vOmJhcg==', 'Bearer ak_\u00ff\u00fe', 'Bearer  ak_a ak_b']) add(`authorization ${JSON.stringify(a.slice(0, 30))}`, { headers: { authorization: a } });
    add('authorization twice', { headers: { authorization: [identity.headers.authorization, 'Bearer ak_other'] } });
    add('host not loopback', { headers: { ...identity.headers, host: 'evil.example' } });
    add('host malformed', { headers: { ...identity.headers, host: '[::1' } });
  }

  // 2–8: see below. 9. Valid-ish requests last: a one-shot route (sign, send, delete) is then
  // still fresh for the mutations that happen to be valid.
  const validish = () => {
    for (let i = 0; i < 3; i++) {
      const body = baseBody();
      if (body === undefined) add(`valid-ish #${i}`, {});
      else addJson(`valid-ish #${i}`, body);
    }
    const burst = baseBody();
    add('6 identical valid-ish requests at once', { ...(burst === undefined ? {} : { body: Buffer.from(JSON.stringify(burst)) }), concurrent: 6 });
  };

  // 8. Random mutations (fast-check values, seeded).
  for (let i = 0; i < o.runs; i++) {
    const s = rng.seed();
    const strategy = rng.int(0, 5);
    if (strategy === 0 && op.body) {
      const b = obj0(baseBody());
      const keys = Object.keys(b);
      const k = keys.length ? rng.pick(keys) : 'x';
      addJson(`random #${i}: ${k} := random JSON`, { ...b, [k]: draw(fc.jsonValue({ maxDepth: 3 }), s) });
    } else if (strategy === 1) {
      addJson(`random #${i}: random JSON body`, draw(fc.jsonValue({ maxDepth: 4 }), s));
    } else if (strategy === 2) {
      const dict = draw(fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 40 }), { maxKeys: 6 }), s);
      add(`random #${i}: random query`, { path: withQuery(plain, [...baseQuery(), ...Object.entries(dict).map(([k, v]) => `${pct(k)}=${pct(v)}`)]) });
    } else if (strategy === 3 && op.pathParams.length) {
      const p = rng.pick(op.pathParams);
      const v = draw(fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }), s);
      add(`random #${i}: path ${p.name} := ${JSON.stringify(v).slice(0, 40)}`, { path: buildPath({ [p.name]: pct(v) }) });
    } else {
      const v = draw(fc.string({ unit: 'binary', maxLength: 200 }), s);
      const b = obj0(baseBody());
      const keys = Object.keys(b);
      if (keys.length) addJson(`random #${i}: ${keys[0]} := random string`, { ...b, [rng.pick(keys)]: v });
      else add(`random #${i}: random query value`, { path: `${plain}?entityId=${pct(v)}` });
    }
  }
  validish();
  return cases;
}

function obj0(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}
