import { z } from 'zod';

/**
 * Every domain event type the server records: what it means and the zod schema of its `data`
 * (the webhook body's `data`). Each module declares its own in its `events.ts` with
 * `defineEvents`, adds their payload types to `EventPayloads` (so `record` is typed by event
 * type) and hands the definitions to the catalogue through its `Module.events`.
 */
export interface EventDefinition {
  description: string;
  data: z.ZodType;
  /** About this device only (never synced, never delivered): not offered to webhook subscriptions. */
  local?: true;
}
export type EventDefinitions = Record<string, EventDefinition>;

/**
 * Event type → the `data` a producer passes to `record`. Empty here: each module's `events.ts`
 * augments it (`declare module '../events/catalogue.js'`), so the kernel names no module.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by declaration merging
export interface EventPayloads {}
export type EventType = keyof EventPayloads & string;
/** The payload types of a module's definitions, for its `EventPayloads` augmentation. */
export type PayloadsOf<D extends EventDefinitions> = { [K in keyof D]: z.input<D[K]['data']> };

/** Checks the definitions' shape at compile time and keeps their literal keys. */
export function defineEvents<const D extends EventDefinitions>(defs: D): D {
  return defs;
}

export interface EventTypeInfo {
  type: string;
  description: string;
}

const definitions = new Map<string, EventDefinition>();

/** Called by the composition root with every module's definitions; a type defined twice is a mistake. */
export function registerEvents(defs: EventDefinitions): void {
  for (const [type, def] of Object.entries(defs)) {
    const known = definitions.get(type);
    if (known && known !== def) throw new Error(`Event type ${type} is defined twice`);
    definitions.set(type, def);
  }
}

/** The types a webhook subscription may name (or `*`), with what each means. */
export function eventCatalogue(): EventTypeInfo[] {
  return [...definitions].filter(([, d]) => !d.local).map(([type, d]) => ({ type, description: d.description }));
}

/** Every registered type with its definition (local ones too). */
export function eventDefinitions(): ReadonlyMap<string, EventDefinition> {
  return definitions;
}

export function isKnownEventType(type: string): boolean {
  return definitions.has(type) && !definitions.get(type)!.local;
}

/** Thrown (development and tests only) when a recorded payload does not match its schema. */
export class EventPayloadError extends Error {}

/** Fails when `type` has no schema or `data` does not match it. */
export function checkEventPayload(type: string, data: unknown): void {
  const def = definitions.get(type);
  if (!def) throw new EventPayloadError(`Event type ${type} has no schema in the event catalogue`);
  const parsed = def.data.safeParse(data);
  if (!parsed.success) throw new EventPayloadError(`Event ${type}: data does not match its schema: ${z.prettifyError(parsed.error)}`);
}
