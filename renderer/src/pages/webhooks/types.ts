import type { z } from 'zod';
import type { attemptSchema, deliverySchema, subscriptionSchema } from '../../../../server/webhooks/schemas';

export type Subscription = z.output<typeof subscriptionSchema>;
export type Attempt = z.output<typeof attemptSchema>;
export type Delivery = z.output<typeof deliverySchema>;

export interface EventType {
  type: string;
  description: string;
}
