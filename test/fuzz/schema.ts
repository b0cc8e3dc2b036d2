import fc from 'fast-check';

/** The subset of JSON Schema (OpenAPI 3.1) that zod-openapi emits for Bureau's routes. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  description?: string;
}

export interface OpenApiDoc {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

export interface OpenApiOperation {
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: OpenApiParameter[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
}

/** What the generator knows about the running server's data: real ids, a webhook sink. */
export interface GenContext {
  /** Real ids by parameter / property name (`ticketId`, `documentId`, …). */
  ids: Record<string, string>;
  /** Every real id, for uuid fields whose name says nothing. */
  anyIds: string[];
  /** An http endpoint that answers 200, for URL fields (webhook targets). */
  sinkUrl: string;
  /** Values the server accepts for fields whose schema cannot say (event types, …), by name. */
  hints?: Record<string, unknown[]>;
}

export class SchemaResolver {
  constructor(private readonly doc: OpenApiDoc) {}

  /** Follows `$ref`s (local `#/components/schemas/…` only) and merges `allOf`. */
  resolve(schema: JsonSchema | undefined, depth = 0): JsonSchema {
    if (!schema || depth > 20) return {};
    if (schema.$ref) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      const { $ref: _ignored, ...rest } = schema;
      return this.resolve({ ...this.doc.components?.schemas?.[name], ...rest }, depth + 1);
    }
    if (schema.allOf) {
      const parts = schema.allOf.map((s) => this.resolve(s, depth + 1));
      const { allOf: _ignored, ...rest } = schema;
      return parts.reduce<JsonSchema>(
        (acc, p) => ({ ...acc, ...p, properties: { ...acc.properties, ...p.properties }, required: [...(acc.required ?? []), ...(p.required ?? [])] }),
        rest,
      );
    }
    return schema;
  }

  /** The alternatives a value may take (`anyOf`/`oneOf`/type arrays), each resolved. */
  variants(schema: JsonSchema | undefined): JsonSchema[] {
    const s = this.resolve(schema);
    const alts = s.anyOf ?? s.oneOf;
    if (alts) return alts.flatMap((a) => this.variants(a));
    if (Array.isArray(s.type)) return s.type.map((t) => ({ ...s, type: t }));
    return [s];
  }

  /** The JSON types a schema allows (`any` when unconstrained). */
  types(schema: JsonSchema | undefined): Set<string> {
    const out = new Set<string>();
    for (const v of this.variants(schema)) {
      if (v.const !== undefined) out.add(jsonType(v.const));
      else if (v.enum) v.enum.forEach((e) => out.add(jsonType(e)));
      else if (typeof v.type === 'string') out.add(v.type === 'integer' ? 'number' : v.type);
      else if (v.properties) out.add('object');
      else out.add('any');
    }
    return out;
  }

  /**
   * Values that satisfy (or nearly satisfy) the schema: real ids for id fields, the sink for
   * URLs, strings matching patterns. This is the starting point that mutations then break.
   */
  validish(schema: JsonSchema | undefined, g: GenContext, name = '', depth = 0): fc.Arbitrary<unknown> {
    const hint = name ? g.hints?.[name] : undefined;
    if (hint?.length && this.variants(schema).every((v) => !v.enum && v.const === undefined)) return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...hint) }, { weight: 1, arbitrary: this.validish(schema, g, '', depth) });
    const alts = this.variants(schema);
    if (alts.length > 1) return fc.oneof(...alts.map((a) => this.single(a, g, name, depth)));
    return this.single(alts[0] ?? {}, g, name, depth);
  }

  private single(s: JsonSchema, g: GenContext, name: string, depth: number): fc.Arbitrary<unknown> {
    if (s.const !== undefined) return fc.constant(s.const);
    if (s.enum?.length) return fc.constantFrom(...s.enum);
    const type = typeof s.type === 'string' ? s.type : s.properties ? 'object' : undefined;
    switch (type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer': {
        const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 0);
        const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : min + 1000);
        return fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(Math.max(max, min), 2 ** 31) });
      }
      case 'number': {
        const min = s.minimum ?? s.exclusiveMinimum ?? 0;
        const max = s.maximum ?? s.exclusiveMaximum ?? min + 1000;
        return fc.double({ min, max: Math.max(max, min), noNaN: true, noDefaultInfinity: true });
      }
      case 'string':
        return this.string(s, g, name);
      case 'array': {
        if (depth > 4) return fc.constant([]);
        const minLength = s.minItems ?? 0;
        return fc.array(this.validish(s.items, g, singular(name), depth + 1), { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 3, 3)) });
      }
      case 'object': {
        if (depth > 4) return fc.constant({});
        const props = s.properties ?? {};
        const keys = Object.keys(props);
        if (!keys.length && s.additionalProperties && typeof s.additionalProperties === 'object') {
          return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), this.validish(s.additionalProperties, g, '', depth + 1), { maxKeys: 3 });
        }
        if (!keys.length) return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
        const model: Record<string, fc.Arbitrary<unknown>> = {};
        for (const k of keys) model[k] = this.validish(props[k], g, k, depth + 1);
        return fc.record(model, { requiredKeys: (s.required ?? []).filter((k) => k in model) });
      }
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  private string(s: JsonSchema, g: GenContext, name: string): fc.Arbitrary<string> {
    const lower = name.toLowerCase();
    if (name === 'entityId' && g.ids.entityId) return fc.constant(g.ids.entityId);
    if (s.format === 'uuid' || (lower.endsWith('id') && g.ids[name])) {
      const own = g.ids[name];
      return own ? fc.oneof({ weight: 6, arbitrary: fc.constant(own) }, { weight: 1, arbitrary: fc.uuid() }) : fc.oneof(fc.constantFrom(...g.anyIds), fc.uuid());
    }
    if (s.format === 'date-time') return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
    if (s.format === 'date') return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
    if (s.format === 'email' || lower.endsWith('email')) return fc.constantFrom('fuzz@example.com', 'ada.lovelace@example.org', 'x+tag@example.net');
    if (s.format === 'uri' || s.format === 'url' || lower === 'url') return fc.constantFrom(g.sinkUrl, `${g.sinkUrl}?q=1`, 'https://example.com/hook');
    if (lower === 'secret') return fc.constant('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    if (s.pattern && s.pattern.length < 200) {
      try {
        const re = new RegExp(s.pattern);
        return fc.stringMatching(re);
      } catch {
        // a pattern JS cannot compile: fall through to plain strings
      }
    }
    const minLength = s.minLength ?? 0;
    const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 24, 24));
    return fc.string({ minLength, maxLength, unit: 'grapheme' });
  }
}

export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function singular(name: string): string {
  return name.endsWith('Ids') ? name.slice(0, -1) : name;
}

/** One value drawn deterministically from an arbitrary. */
export function draw<T>(arb: fc.Arbitrary<T>, seed: number): T {
  return fc.sample(arb, { seed, numRuns: 1 })[0];
}
