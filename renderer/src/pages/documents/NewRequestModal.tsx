import { useState } from 'react';
import { useNavigate } from 'react-router';
import { client, unwrap } from '../../api';
import { Button, ErrorBanner, Modal, SelectInput, TextArea, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import type { DocumentItem } from './types';

/** Starts a signature request for a document: title, message, due date and signing order. */
export function NewRequestModal({ document, onClose }: { document: DocumentItem; onClose: () => void }) {
  const navigate = useNavigate();
  const [title, setTitle] = useState(document.name.replace(/\.pdf$/i, ''));
  const [message, setMessage] = useState('');
  const [due, setDue] = useState('');
  const [signingOrder, setSigningOrder] = useState<'parallel' | 'sequential'>('parallel');
  const [autoRemind, setAutoRemind] = useState(true);
  const create = useAction(async () => {
    const r = await unwrap(client.POST('/api/documents/signature-requests', { body: {
      documentId: document.id,
      title,
      message: message || undefined,
      dueDate: due ? new Date(`${due}T23:59:59`).toISOString() : undefined,
      signingOrder,
      autoRemind,
    } }));
    navigate(`/documents/requests/${r.id}`);
  });
  return (
    <Modal
      title="Request signatures"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" busy={create.pending} onClick={() => void create.run()}>
            Continue
          </Button>
        </>
      }
    >
      <form className="form" onSubmit={(e) => (e.preventDefault(), void create.run())}>
        <ErrorBanner error={create.error} />
        <TextInput label="Title" value={title} onChange={(e) => setTitle(e.target.value)} required />
        <TextArea label="Message to signers" value={message} onChange={(e) => setMessage(e.target.value)} rows={3} />
        <div className="grid-2">
          <TextInput label="Due date" type="date" value={due} onChange={(e) => setDue(e.target.value)} hint="The request expires after this day" />
          <SelectInput
            label="Signing order"
            value={signingOrder}
            onChange={(e) => setSigningOrder(e.target.value as 'parallel' | 'sequential')}
            options={[
              { value: 'parallel', label: 'Everyone at once' },
              { value: 'sequential', label: 'One after another' },
            ]}
          />
        </div>
        <label className="checkbox">
          <input type="checkbox" checked={autoRemind} onChange={(e) => setAutoRemind(e.target.checked)} /> Remind signers automatically (after 2 days, then every 3 days, up to 3 times)
        </label>
      </form>
    </Modal>
  );
}
