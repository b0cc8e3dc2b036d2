import { Fragment } from 'react';
import { client, unwrap } from '../../api';
import { Badge, Button, EmptyState, ErrorBanner, Spinner, Tabs } from '../../ui/components';
import { formatDateTime, oneOf, useAction, useSearchState } from '../../ui/hooks';
import { reloadDeliveries, useDeliveries } from './webhooks-data';

const TONE = { pending: 'amber', succeeded: 'green', failed: 'red' } as const;
const FILTERS = ['all', 'pending', 'succeeded', 'failed'] as const;
type Filter = (typeof FILTERS)[number];
const LABEL: Record<Filter, string> = { all: 'All', pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' };

/**
 * Deliveries newest first, filtered by status; a row opens its attempts and payload, and can be
 * retried by hand. The filter and the open delivery are in the URL (reload and Back keep them).
 */
export function DeliveryLog({ subscriptionId, canRetry }: { subscriptionId: string; canRetry: boolean }) {
  const [params, setParams] = useSearchState({ status: 'all', delivery: '' });
  const status = oneOf(params.status, FILTERS, 'all');
  const open = params.delivery || null;
  const setOpen = (id: string | null) => setParams({ delivery: id }, { replace: true });
  const log = useDeliveries(subscriptionId, status === 'all' ? undefined : status);
  const retry = useAction(async (deliveryId: string) => {
    await unwrap(client.POST('/api/webhook-subscriptions/{subscriptionId}/deliveries/{deliveryId}/retry', { params: { path: { subscriptionId, deliveryId } } }));
    await reloadDeliveries(subscriptionId);
  });
  return (
    <div className="stack">
      <Tabs<Filter> value={status} onChange={(s) => setParams({ status: s, delivery: null })} tabs={FILTERS.map((f) => ({ value: f, label: LABEL[f] }))} />
      <ErrorBanner error={log.error?.message ?? retry.error} onRetry={() => void log.refetch()} />
      {log.isPending ? (
        <Spinner />
      ) : !log.data?.length ? (
        <EmptyState title={status === 'all' ? 'No deliveries yet' : `No ${LABEL[status].toLowerCase()} deliveries`} icon="⇄">
          Deliveries appear here as events happen.
        </EmptyState>
      ) : (
        <div className="table-scroll">
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
                    <button type="button" className="wh-toggle" aria-expanded={open === d.id} onClick={(e) => (e.stopPropagation(), setOpen(open === d.id ? null : d.id))}>
                      <span aria-hidden>{open === d.id ? '▾' : '▸'}</span> <code>{d.eventType}</code>
                    </button>
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
        </div>
      )}
    </div>
  );
}
