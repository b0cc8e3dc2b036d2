import type { ApiData, Schema } from '../../api';

export type Subscription = Schema<'WebhookSubscription'>;
export type Attempt = Schema<'WebhookAttempt'>;
export type Delivery = Schema<'WebhookDelivery'>;
export type EventType = ApiData<'/api/webhook-subscriptions/event-types'>[number];
