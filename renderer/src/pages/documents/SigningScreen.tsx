import { useState } from 'react';
import { api } from '../../api';
import { Badge, Button, Card, ErrorBanner, Modal, Notice, Spinner, TextArea } from '../../ui/components';
import { formatDateTime, useAction, useAsync } from '../../ui/hooks';
import { downloadBlob, fetchPdf } from './docs-api';
import { FieldBox } from './FieldBox';
import { FieldInputModal } from './FieldInputModal';
import { PdfPages } from './PdfPages';
import { FIELD_LABELS, STATUS_TONE, type Field, type SigningView } from './types';

const AUTO: Field['type'][] = ['name', 'email', 'date'];

/** The signer's view: fill the fields on the document, then finish, or decline. */
export function SigningScreen({ token, onFinished }: { token: string; onFinished?: (view: SigningView) => void }) {
  const view = useAsync(() => api.get<SigningView>(`/api/sign/${token}`), [token]);
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [editing, setEditing] = useState<Field | null>(null);
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const submit = useAction(async (body: unknown) => {
    const result = await api.post<SigningView>(`/api/sign/${token}`, body);
    view.setData(result);
    onFinished?.(result);
  });
  const download = useAction(async () => downloadBlob(await fetchPdf(`/api/sign/${token}/document`), `${view.data!.request.documentName}`));
  if (view.error) return <ErrorBanner error={view.error} />;
  if (!view.data) return <Spinner />;
  const v = view.data;
  const display = (f: Field): string | boolean | null => {
    if (f.value !== null) return f.value;
    if (f.id in values) return values[f.id];
    if (f.type === 'name') return v.signer.name;
    if (f.type === 'email') return v.signer.email;
    if (f.type === 'date') return new Date().toISOString().slice(0, 10);
    return null;
  };
  const missing = v.fields.filter((f) => f.required && !AUTO.includes(f.type) && (f.type === 'checkbox' ? values[f.id] !== true : !values[f.id]));
  const finish = () => void submit.run({ action: 'sign', fields: Object.entries(values).map(([fieldId, value]) => ({ fieldId, value })) });

  const overlay = (page: number) =>
    v.fields
      .filter((f) => f.page === page)
      .map((f) => {
        const value = display(f);
        const editable = v.canSign && !AUTO.includes(f.type);
        return (
          <FieldBox
            key={f.id}
            field={f}
            color={value ? '#059669' : '#2563eb'}
            className={`${editable ? 'fillable' : ''} ${value ? 'filled' : ''}`}
            label={`${FIELD_LABELS[f.type]}${f.required ? ' (required)' : ''}`}
            onClick={editable ? () => (f.type === 'checkbox' ? setValues({ ...values, [f.id]: values[f.id] !== true }) : setEditing(f)) : undefined}
          >
            {typeof value === 'string' && value.startsWith('data:image/png') ? <img src={value} alt="Signature" /> : f.type === 'checkbox' ? <span>{value === true || value === 'true' ? '☑' : '☐'}</span> : <span style={value && (f.type === 'signature' || f.type === 'initials') ? { fontFamily: 'cursive', fontSize: 18, color: '#0f172a' } : undefined}>{value ? String(value) : `${FIELD_LABELS[f.type]}${f.required ? ' *' : ''}`}</span>}
          </FieldBox>
        );
      });

  return (
    <div className="stack">
      <Card
        title={v.request.title}
        actions={
          <>
            <Badge tone={STATUS_TONE[v.request.status]}>{v.request.status}</Badge>
            {v.canSign && (
              <>
                <Button variant="ghost" onClick={() => setDeclining(true)}>
                  Decline
                </Button>
                <Button variant="primary" busy={submit.pending} disabled={missing.length > 0} onClick={finish}>
                  Finish signing
                </Button>
              </>
            )}
            {v.request.status === 'completed' && (
              <Button variant="primary" busy={download.pending} onClick={() => void download.run()}>
                Download signed PDF
              </Button>
            )}
          </>
        }
      >
        <p>
          {v.request.senderName ? `${v.request.senderName} asks ` : 'You are asked '}
          <strong>{v.signer.name}</strong> ({v.signer.email}) to {v.signer.role === 'signer' ? 'sign' : v.signer.role === 'approver' ? 'approve' : 'review'} “{v.request.documentName}”.
          {v.request.dueDate && <> Due {formatDateTime(v.request.dueDate)}.</>}
        </p>
        {v.request.message && <Notice>{v.request.message}</Notice>}
        {v.waitingFor.length > 0 && <Notice kind="warning">Waiting for {v.waitingFor.join(', ')} to sign first.</Notice>}
        {v.signer.status === 'signed' && <Notice kind="success">Signed {formatDateTime(v.signer.signedAt)}. {v.request.status === 'completed' ? 'Everyone has signed.' : 'The others have been notified.'}</Notice>}
        {v.signer.status === 'declined' && <Notice kind="warning">You declined this request.</Notice>}
        {v.canSign && missing.length > 0 && <p className="muted">Click each highlighted field to fill it ({missing.length} left).</p>}
        <ErrorBanner error={submit.error ?? download.error} />
      </Card>
      <PdfPages key={v.request.status} path={`/api/sign/${token}/document`} width={720} overlay={v.request.status === 'completed' ? undefined : overlay} />
      {editing && (
        <FieldInputModal
          field={editing}
          signerName={v.signer.name}
          onClose={() => setEditing(null)}
          onSave={(value) => {
            setValues({ ...values, [editing.id]: value });
            setEditing(null);
          }}
        />
      )}
      {declining && (
        <Modal
          title="Decline to sign"
          onClose={() => setDeclining(false)}
          footer={
            <Button variant="danger" disabled={!reason.trim()} busy={submit.pending} onClick={() => void submit.run({ action: 'decline', reason }).then(() => setDeclining(false))}>
              Decline
            </Button>
          }
        >
          <TextArea label="Reason (shared with the sender)" value={reason} onChange={(e) => setReason(e.target.value)} rows={3} />
        </Modal>
      )}
    </div>
  );
}
