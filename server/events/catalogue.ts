/**
 * Every domain event type the server records, with what it means. Webhook subscriptions may
 * name these (or `*`); each module adds its own types here.
 */
export interface EventTypeInfo {
  type: string;
  description: string;
}

export const EVENT_CATALOGUE: EventTypeInfo[] = [];

export function isKnownEventType(type: string): boolean {
  return EVENT_CATALOGUE.some((e) => e.type === type);
}
