import { useState } from 'react';
import { client, unwrap } from '../../api';
import { Button, ErrorBanner, Modal, SelectInput, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { useEventTypes } from './webhooks-data';
import type { Subscription } from './types';
import { useDeliverers } from './deliverers';

/** Create or edit an endpoint: URL, description and the events it receives (or all). */
export function SubscriptionForm({ existing, onClose, onSaved }: { existing?: Subscription; onClose: () => void; onSaved: (s: Subscription & { secret?: string }) => void }) {
  const catalogue = useEventTypes();
  const [url, setUrl] = useState(existing?.url ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [all, setAll] = useState(existing ? existing.events.includes('*') : true);
  const [events, setEvents] = useState<Set<string>>(new Set(existing?.events.filter((e) => e !== '*') ?? []));
  const deliverers = useDeliverers();
  // '' = the default: the hosted instance for public URLs, this device for local ones.
  const [deliveredBy, setDeliveredBy] = useState(existing?.deliveredBy ?? '');
  const toggle = (t: string) =>
    setEvents((prev) => {
      const next = new Set(prev);
      if (next.has(t)) next.delete(t);
      else next.add(t);
      return next;
    });
  const save = useAction(async () => {
    const chosen = deliveredBy === deliverers.thisDevice ? 'this-device' : deliveredBy;
    const body = { url, description: description.trim() || null, events: all ? ['*'] : [...events], ...(deliverers.linked && chosen && chosen !== existing?.deliveredBy ? { deliveredBy: chosen } : {}) };
    const saved = existing ? await unwrap(client.PUT('/api/webhook-subscriptions', { body: { subscriptionId: existing.id, ...body } })) : await unwrap(client.POST('/api/webhook-subscriptions', { body }));
    onSaved(saved);
  });
  return (
    <Modal
      title={existing ? 'Edit endpoint' : 'Add endpoint'}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="webhook-form" busy={save.pending} disabled={!all && events.size === 0}>
            {existing ? 'Save' : 'Add endpoint'}
          </Button>
        </>
      }
    >
      <form id="webhook-form" className="form" onSubmit={(e) => (e.preventDefault(), void save.run())}>
        <ErrorBanner error={save.error} />
        <TextInput label="Endpoint URL" type="url" value={url} onChange={(e) => setUrl(e.target.value)} required placeholder="https://example.com/webhooks/bureau" />
        <TextInput label="Description" value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} placeholder="What receives these events" />
        {deliverers.linked && (
          <SelectInput
            label="Delivered by"
            hint="Exactly one sender, for events from every device and member. Only a device on that network reaches localhost or an office address."
            value={deliveredBy}
            onChange={(e) => setDeliveredBy(e.target.value)}
            options={[
              ...(existing ? [] : [{ value: '', label: 'Automatic: the hosted instance, or this device for a local address' }]),
              { value: 'hosted', label: 'The hosted instance (always on)' },
              ...(deliverers.thisDevice ? [{ value: deliverers.thisDevice, label: 'This device' }] : []),
              ...deliverers.devices.filter((d) => d.id !== deliverers.thisDevice).map((d) => ({ value: d.id, label: d.name })),
              // A device this member cannot list: kept as it is.
              ...(existing?.deliveredBy && existing.deliveredBy !== 'hosted' && existing.deliveredBy !== deliverers.thisDevice && !deliverers.devices.some((d) => d.id === existing.deliveredBy) ? [{ value: existing.deliveredBy, label: deliverers.nameOf(existing.deliveredBy) }] : []),
            ]}
          />
        )}
        <fieldset className="wh-events">
          <legend>Events</legend>
          <label className="checkbox">
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> All events, including ones added later
          </label>
          {!all && (
            <div className="checkbox-list">
              {catalogue.data?.map((t) => (
                <label key={t.type} className="checkbox" title={t.description}>
                  <input type="checkbox" checked={events.has(t.type)} onChange={() => toggle(t.type)} /> <code>{t.type}</code>
                </label>
              ))}
            </div>
          )}
        </fieldset>
      </form>
    </Modal>
  );
}
