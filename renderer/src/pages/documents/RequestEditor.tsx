import { useState, type DragEvent, type MouseEvent } from 'react';
import { api } from '../../api';
import { Badge, Button, Card, ErrorBanner, Notice, SelectInput, TextInput } from '../../ui/components';
import { useAction, useAsync } from '../../ui/hooks';
import { FieldBox } from './FieldBox';
import { PdfPages } from './PdfPages';
import { FIELD_LABELS, FIELD_SIZES, SIGNER_COLORS, type Field, type FieldType, type Party, type SignatureRequest } from './types';

const FIELD_TYPES = Object.keys(FIELD_LABELS) as FieldType[];
const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max);

/** Draft editor: signers, fields dragged onto the rendered pages, then send. */
export function RequestEditor({ request, onChange }: { request: SignatureRequest; onChange: () => void }) {
  const fieldsUrl = `/api/documents/signature-requests/${request.id}/fields`;
  const fields = useAsync(() => api.get<Field[]>(fieldsUrl), [request.id]);
  const parties = useAsync(() => api.get<Party[]>('/api/documents/signature-parties'));
  const fillable = request.signers.filter((s) => s.role === 'signer' || s.role === 'approver');
  const [active, setActive] = useState<string | null>(fillable[0]?.id ?? null);
  const [armed, setArmed] = useState<FieldType | null>(null);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('signer');
  const colorOf = (signerId: string) => SIGNER_COLORS[request.signers.findIndex((s) => s.id === signerId) % SIGNER_COLORS.length];
  const signerId = active && fillable.some((s) => s.id === active) ? active : (fillable[0]?.id ?? null);

  const addSigner = useAction(async () => {
    const s = await api.post<{ id: string }>(`/api/documents/signature-requests/${request.id}/signers`, { name, email, role });
    setName('');
    setEmail('');
    setActive(s.id);
    onChange();
  });
  const reorderSigner = useAction(async (id: string, order: number) => {
    await api.patch(`/api/documents/signature-requests/${request.id}/signers/${id}`, { order });
    onChange();
  });
  const removeSigner = useAction(async (id: string) => {
    await api.delete(`/api/documents/signature-requests/${request.id}/signers/${id}`);
    onChange();
    await fields.reload();
  });
  const place = useAction(async (type: FieldType, page: number, x: number, y: number) => {
    if (!signerId) throw new Error('Add a signer first');
    const size = FIELD_SIZES[type];
    const placed = await api.post<Field[]>(fieldsUrl, { fields: [{ signerId, type, page, x: clamp(x - size.width / 2, 1 - size.width), y: clamp(y - size.height / 2, 1 - size.height), ...size }] });
    fields.setData(placed);
    onChange();
  });
  const removeField = useAction(async (id: string) => {
    fields.setData(await api.delete<Field[]>(fieldsUrl, { fieldIds: [id] }));
    onChange();
  });
  const send = useAction(async () => {
    await api.patch(`/api/documents/signature-requests/${request.id}`, { action: 'send' });
    onChange();
  });
  const cancel = useAction(async () => {
    await api.patch(`/api/documents/signature-requests/${request.id}`, { action: 'cancel' });
    onChange();
  });

  const pointOf = (e: MouseEvent<HTMLDivElement> | DragEvent<HTMLDivElement>) => {
    const rect = e.currentTarget.getBoundingClientRect();
    return { x: (e.clientX - rect.left) / rect.width, y: (e.clientY - rect.top) / rect.height };
  };
  const overlay = (page: number) => (
    <div
      style={{ position: 'absolute', inset: 0, cursor: armed ? 'copy' : 'default' }}
      data-testid={`page-drop-${page}`}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        const type = e.dataTransfer.getData('application/x-bureau-field') as FieldType;
        if (FIELD_TYPES.includes(type)) void place.run(type, page, pointOf(e).x, pointOf(e).y);
      }}
      onClick={(e) => {
        if (e.target !== e.currentTarget || !armed) return;
        void place.run(armed, page, pointOf(e).x, pointOf(e).y);
      }}
    >
      {fields.data
        ?.filter((f) => f.page === page)
        .map((f) => (
          <FieldBox key={f.id} field={f} color={colorOf(f.signerId)} label={`${FIELD_LABELS[f.type]} field`}>
            <span>{FIELD_LABELS[f.type]}</span>
            <button aria-label="Remove field" onClick={() => void removeField.run(f.id)}>
              ×
            </button>
          </FieldBox>
        ))}
    </div>
  );

  return (
    <div className="editor-layout">
      <div className="stack">
        <Card title={request.title} actions={<Badge>draft</Badge>}>
          <p className="muted">
            {request.documentName} · {request.signingOrder === 'sequential' ? 'Signers sign in order' : 'Signers sign in any order'}
          </p>
          <ErrorBanner error={send.error ?? cancel.error} />
          <div className="row">
            <Button variant="primary" busy={send.pending} onClick={() => void send.run()}>
              Send for signature
            </Button>
            <Button variant="ghost" busy={cancel.pending} onClick={() => void cancel.run()}>
              Discard
            </Button>
          </div>
        </Card>
        <Card title="Signers">
          <ErrorBanner error={addSigner.error ?? removeSigner.error ?? reorderSigner.error} />
          <div className="stack">
            {request.signers.map((s) => (
              <div key={s.id} className="signer-line">
                <button className={`signer-chip ${s.id === signerId ? 'selected' : ''}`} onClick={() => setActive(s.id)} aria-pressed={s.id === signerId}>
                  <span className="signer-dot" style={{ background: colorOf(s.id) }} aria-hidden />
                  <span>
                    {s.order}. {s.name} <span className="muted">{s.role}</span>
                    <br />
                    <span className="muted">{s.email}</span>
                  </span>
                </button>
                {request.signingOrder === 'sequential' && (
                  <input
                    className="input"
                    style={{ width: 56 }}
                    type="number"
                    min={1}
                    max={100}
                    defaultValue={s.order}
                    aria-label={`Signing order of ${s.name}`}
                    title="Signing order (equal numbers sign at the same time)"
                    onBlur={(e) => Number(e.target.value) !== s.order && void reorderSigner.run(s.id, Number(e.target.value))}
                  />
                )}
                <button className="icon-btn" aria-label={`Remove ${s.name}`} onClick={() => void removeSigner.run(s.id)}>
                  ×
                </button>
              </div>
            ))}
          </div>
          <form className="form" onSubmit={(e) => (e.preventDefault(), void addSigner.run())}>
            <TextInput label="Name" value={name} onChange={(e) => setName(e.target.value)} required list="signature-parties" />
            <TextInput
              label="E-mail"
              type="email"
              value={email}
              required
              list="signature-parties-email"
              onChange={(e) => {
                setEmail(e.target.value);
                const p = parties.data?.find((x) => x.email === e.target.value);
                if (p && !name) setName(p.name);
              }}
            />
            <datalist id="signature-parties-email">
              {parties.data?.map((p) => (
                <option key={p.email} value={p.email}>
                  {p.name}
                </option>
              ))}
            </datalist>
            <SelectInput label="Role" value={role} onChange={(e) => setRole(e.target.value)} options={['signer', 'approver', 'viewer', 'cc'].map((r) => ({ value: r, label: r }))} />
            <Button type="submit" busy={addSigner.pending}>
              Add signer
            </Button>
          </form>
        </Card>
        <Card title="Fields">
          <p className="muted">Drag a field onto the page (or select it and click the page) for the selected signer.</p>
          <div className="palette">
            {FIELD_TYPES.map((t) => (
              <div
                key={t}
                className={`palette-item ${armed === t ? 'selected' : ''}`}
                draggable
                role="button"
                tabIndex={0}
                aria-pressed={armed === t}
                data-testid={`palette-${t}`}
                onDragStart={(e) => e.dataTransfer.setData('application/x-bureau-field', t)}
                onClick={() => setArmed(armed === t ? null : t)}
                onKeyDown={(e) => e.key === 'Enter' && setArmed(armed === t ? null : t)}
              >
                {FIELD_LABELS[t]}
              </div>
            ))}
          </div>
          <ErrorBanner error={place.error ?? removeField.error ?? fields.error} />
          {!signerId && <Notice kind="warning">Add a signer to place fields.</Notice>}
        </Card>
      </div>
      <PdfPages path={`/api/documents/${request.documentId}/content`} width={680} overlay={overlay} />
    </div>
  );
}
