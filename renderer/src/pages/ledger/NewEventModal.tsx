import { useState } from 'react';
import { api } from '../../api';
import { Button, ErrorBanner, Modal, SelectInput, TextArea } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import type { EventType, LedgerEvent } from './types';

/** Records a business event by hand: pick a type, edit its example payload, post. */
export function NewEventModal({ types, onClose, onPosted }: { types: EventType[]; onClose: () => void; onPosted: (id: string) => void }) {
  const [type, setType] = useState(types[0]?.type ?? '');
  const def = types.find((t) => t.type === type);
  const [payload, setPayload] = useState(() => JSON.stringify(types[0]?.example ?? {}, null, 2));
  const [jsonError, setJsonError] = useState<string | null>(null);
  const choose = (t: string) => {
    setType(t);
    setPayload(JSON.stringify(types.find((x) => x.type === t)?.example ?? {}, null, 2));
    setJsonError(null);
  };
  const submit = useAction(async () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      setJsonError('The payload is not valid JSON');
      return;
    }
    const event = await api.post<LedgerEvent>('/api/ledger/events', { type, payload: parsed });
    onPosted(event.id);
  });
  return (
    <Modal
      title="Record a business event"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={submit.pending} onClick={() => void submit.run()}>
            Record and post
          </Button>
        </>
      }
    >
      <div className="form">
        <ErrorBanner error={submit.error} />
        <SelectInput label="Event type" value={type} onChange={(e) => choose(e.target.value)} options={types.map((t) => ({ value: t.type, label: t.title }))} />
        {def && (
          <p className="muted" style={{ margin: 0, fontSize: 13 }}>
            {def.description} {def.rule ?? 'This type is recorded without posting.'}
          </p>
        )}
        <TextArea label="Payload (JSON)" value={payload} onChange={(e) => (setPayload(e.target.value), setJsonError(null))} error={jsonError} rows={10} style={{ fontFamily: 'var(--mono)', fontSize: 12 }} />
      </div>
    </Modal>
  );
}
