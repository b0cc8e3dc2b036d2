// Which types a selection of events can be reclassified to, and the new type's payload prefilled
// from the old one: a payment stays a payment (money in or out), and the person only types what
// the new type needs that the old one did not have.
import type { EventType, LedgerEventDetail } from './types';

/** The posting types of the selection's one flow, other than the type every event already has. */
export function reclassifyChoices(types: EventType[], events: Pick<LedgerEventDetail, 'type'>[]): { choices: EventType[]; mixed: boolean } {
  const flowOf = new Map(types.map((t) => [t.type, t.flow]));
  const flows = new Set(events.map((e) => flowOf.get(e.type)));
  if (flows.size !== 1) return { choices: [], mixed: flows.size > 1 };
  const [flow] = flows;
  const current = new Set(events.map((e) => e.type));
  return { choices: types.filter((t) => t.posts && t.flow === flow && !(current.size === 1 && current.has(t.type))), mixed: false };
}

/** Fields that mean the same under another name in another type. */
const ALIASES: Record<string, string[]> = {
  netAmount: ['amount'],
  amount: ['netAmount'],
  merchant: ['counterparty', 'supplierName', 'customerName'],
  supplierName: ['counterparty', 'merchant'],
  customerName: ['counterparty'],
  description: ['memo'],
};

/** The new type's fields that the old payload already answers, by name or alias. */
export function prefillPayload(newType: EventType | undefined, oldPayload: Record<string, unknown>): Record<string, unknown> {
  const properties = Object.keys(((newType?.payloadSchema ?? {}) as { properties?: Record<string, unknown> }).properties ?? {});
  const out: Record<string, unknown> = {};
  for (const key of properties) {
    const source = [key, ...(ALIASES[key] ?? [])].find((k) => oldPayload[k] !== undefined && oldPayload[k] !== null);
    if (source) out[key] = oldPayload[source];
  }
  return out;
}
