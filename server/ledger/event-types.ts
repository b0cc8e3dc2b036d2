import { z } from 'zod';
import { EVENT_TYPES } from './rules/index.js';

/** The event-type catalogue with each payload's JSON Schema, its rule in words and an example. */
export function listEventTypes() {
  return EVENT_TYPES.map((d) => ({
    type: d.type,
    title: d.title,
    description: d.description,
    schemaVersion: d.schemaVersion,
    posts: Boolean(d.post),
    recordable: d.recordable !== false,
    flow: d.flow,
    rule: d.rule,
    payloadSchema: z.toJSONSchema(d.payload, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
    example: d.example as Record<string, unknown>,
  }));
}
