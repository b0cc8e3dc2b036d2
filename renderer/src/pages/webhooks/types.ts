export interface Subscription {
  id: string;
  entityId: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: string | null;
  failingSince: string | null;
  metadata: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

export interface Attempt {
  id: string;
  attempt: number;
  trigger: 'automatic' | 'manual';
  startedAt: string;
  durationMs: number;
  statusCode: number | null;
  success: boolean;
  error: string | null;
  responseExcerpt: string | null;
}

export interface Delivery {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attemptCount: number;
  nextAttemptAt: string | null;
  lastAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  payload: unknown;
  createdAt: string;
  attempts: Attempt[];
}

export interface EventType {
  type: string;
  description: string;
}
