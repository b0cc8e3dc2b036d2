import { client, invalidateEntity, setEntityData, unwrap, useEntityQuery } from '../../api';
import type { Subscription } from './types';

export function useSubscriptions() {
  return useEntityQuery(['webhooks', 'list'], () => unwrap(client.GET('/api/webhook-subscriptions')));
}

export function useSubscription(subscriptionId: string) {
  return useEntityQuery(['webhooks', 'subscription', subscriptionId], () => unwrap(client.GET('/api/webhook-subscriptions/{subscriptionId}', { params: { path: { subscriptionId } } })));
}

/** A saved endpoint: its page shows the answer, the list is read again. */
export function subscriptionSaved(s: Subscription) {
  setEntityData(['webhooks', 'subscription', s.id], s);
  return invalidateEntity('webhooks', 'list');
}

export function useDeliveries(subscriptionId: string, status: 'pending' | 'succeeded' | 'failed' | undefined) {
  return useEntityQuery(['webhooks', 'deliveries', subscriptionId, status ?? 'all'], () =>
    unwrap(client.GET('/api/webhook-subscriptions/{subscriptionId}/deliveries', { params: { path: { subscriptionId }, query: { limit: 50, status } } })),
  );
}

export function reloadDeliveries(subscriptionId: string) {
  return invalidateEntity('webhooks', 'deliveries', subscriptionId);
}

export function useEventTypes() {
  return useEntityQuery(['webhooks', 'event-types'], () => unwrap(client.GET('/api/webhook-subscriptions/event-types')));
}

export function useWebhookSettings() {
  return useEntityQuery(['webhooks', 'settings'], () => unwrap(client.GET('/api/webhook-subscriptions/settings')));
}
