import { Fragment, useState } from 'react';
import { api } from '../../api';
import { Badge, Button, EmptyState, ErrorBanner, Spinner } from '../../ui/components';
import { formatDateTime, useAction, useAsync } from '../../ui/hooks';
import type { Delivery } from './types';

const TONE = { pending: 'amber', succeeded: 'green', failed: 'red' } as const;

/** Deliveries newest first; a row opens its attempts and payload, and can be retried by hand. */
export function DeliveryLog({ subscriptionId, canRetry, version }: { subscriptionId: string; canRetry: boolean; version: number }) {
  const log = useAsync(() => api.get<Delivery[]>(`/api/webhook-subscriptions/${subscriptionId}/deliveries`, { limit: 50 }), [subscriptionId, version]);
  const [open, setOpen] = useState<string | null>(null);
  const retry = useAction(async (id: string) => {
    await api.post(`/api/webhook-subscriptions/${subscriptionId}/deliveries/${id}/retry`);
    await log.reload();
  });
  if (log.loading && !log.data) return <Spinner />;
  return (
    <div className="stack">
      <ErrorBanner error={log.error ?? retry.error} onRetry={() => void log.reload()} />
      {!log.data?.length ? (
        <EmptyState title="No deliveries yet" icon="⇄">
          Deliveries appear here as events happen.
        </EmptyState>
      ) : (
        <table className="table" aria-label="Delivery log">
          <thead>
            <tr>
              <th>Event</th>
              <th>Status</th>
              <th>Attempts</th>
              <th>Last response</th>
              <th>When</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {log.data.map((d) => (
              <Fragment key={d.id}>
                <tr className="clickable" onClick={() => setOpen(open === d.id ? null : d.id)}>
                  <td>
                    <code>{d.eventType}</code>
                  </td>
                  <td>
                    <Badge tone={TONE[d.status]}>{d.status}</Badge>
                  </td>
                  <td>{d.attemptCount}</td>
                  <td>{d.lastStatusCode ?? (d.lastError ? 'error' : '—')}</td>
                  <td className="muted">
                    {formatDateTime(d.lastAttemptAt ?? d.createdAt)}
                    {d.status === 'pending' && d.nextAttemptAt && <div>next {formatDateTime(d.nextAttemptAt)}</div>}
                  </td>
                  <td onClick={(e) => e.stopPropagation()}>
                    {canRetry && (
                      <Button onClick={() => void retry.run(d.id)} busy={retry.pending}>
                        Retry
                      </Button>
                    )}
                  </td>
                </tr>
                {open === d.id && (
                  <tr>
                    <td colSpan={6} className="wh-detail">
                      <ol className="wh-attempts">
                        {d.attempts.map((a) => (
                          <li key={a.id}>
                            <Badge tone={a.success ? 'green' : 'red'}>{a.statusCode ?? 'no response'}</Badge> attempt {a.attempt} ({a.trigger}) · {formatDateTime(a.startedAt)} · {a.durationMs} ms
                            {a.error && <div className="field-error">{a.error}</div>}
                            {a.responseExcerpt && <pre className="wh-pre">{a.responseExcerpt}</pre>}
                          </li>
                        ))}
                      </ol>
                      <div className="muted">
                        webhook-id <code>{d.eventId}</code>
                      </div>
                      <pre className="wh-pre">{JSON.stringify(d.payload, null, 2)}</pre>
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
