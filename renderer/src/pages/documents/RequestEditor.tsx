import { useRef, useState, type DragEvent, type MouseEvent } from 'react';
import { api } from '../../api';
import { Badge, Button, Card, ErrorBanner, Notice, SelectInput, TextInput } from '../../ui/components';
import { useAction, useAsync } from '../../ui/hooks';
import { boxOf, FieldBox, movedBox, resizedBox, type Box } from './FieldBox';
import { FieldSettings } from './FieldSettings';
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
  const [selected, setSelected] = useState<string | null>(null);
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
    const before = new Set(fields.data?.map((f) => f.id));
    const placed = await api.post<Field[]>(fieldsUrl, { fields: [{ signerId, type, page, x: clamp(x - size.width / 2, 1 - size.width), y: clamp(y - size.height / 2, 1 - size.height), ...size }] });
    fields.setData(placed);
    setSelected(placed.find((f) => !before.has(f.id))?.id ?? null);
    onChange();
  });

  // Field edits show at once and are saved in the background, one request after another, so a
  // quick series of moves reaches the server in the order it was made.
  const [announcement, setAnnouncement] = useState('');
  const [saving, setSaving] = useState(0);
  const [saveError, setSaveError] = useState<string | null>(null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const current = useRef<Field[] | undefined>(undefined);
  current.current = fields.data;
  const nudgeTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const enqueue = <T,>(work: () => Promise<T>): Promise<T> => {
    setSaving((n) => n + 1);
    const run = queue.current.then(work);
    queue.current = run.catch(() => undefined).finally(() => setSaving((n) => n - 1));
    return run;
  };
  const save = (id: string, change: Partial<Field>) => {
    setSaveError(null);
    enqueue(() => api.patch<Field>(`${fieldsUrl}/${id}`, change)).catch((err: Error) => {
      setSaveError(err.message);
      void fields.reload();
    });
  };
  const edit = (id: string, change: Partial<Field>) => fields.setData((list) => list?.map((f) => (f.id === id ? { ...f, ...change } : f)));
  const fieldById = (id: string) => current.current?.find((f) => f.id === id);
  const saveBox = (id: string) => {
    const f = fieldById(id);
    if (f) save(id, boxOf(f));
  };
  const nudge = (id: string, kind: 'move' | 'resize', dx: number, dy: number) => {
    const f = fieldById(id);
    if (!f) return;
    edit(id, kind === 'move' ? movedBox(f, dx, dy) : resizedBox(f, 'se', dx, dy));
    // Holding an arrow key repeats it: save once the keys rest.
    clearTimeout(nudgeTimers.current.get(id));
    nudgeTimers.current.set(id, setTimeout(() => flushNudge(id), 400));
  };
  const flushNudge = (id: string) => {
    const timer = nudgeTimers.current.get(id);
    if (timer === undefined) return;
    clearTimeout(timer);
    nudgeTimers.current.delete(id);
    saveBox(id);
  };
  const nameOf = (f: Field) => `${f.label || FIELD_LABELS[f.type]} field for ${request.signers.find((s) => s.id === f.signerId)?.name ?? 'a removed signer'}, page ${f.page}${f.required ? '' : ', optional'}`;
  const removeField = useAction(async (f: Field, fromKeyboard = false) => {
    clearTimeout(nudgeTimers.current.get(f.id));
    nudgeTimers.current.delete(f.id);
    // After deleting by keyboard, focus goes to the next field (else the first palette item).
    const order = (current.current ?? []).filter((x) => x.id !== f.id);
    const next = order.find((x) => x.page > f.page || (x.page === f.page && (x.y > f.y || (x.y === f.y && x.x > f.x)))) ?? order[order.length - 1];
    const left = await enqueue(() => api.delete<Field[]>(fieldsUrl, { fieldIds: [f.id] }));
    fields.setData(left);
    setSelected(null);
    setAnnouncement(`${nameOf(f)} removed`);
    if (fromKeyboard) {
      requestAnimationFrame(() => {
        const target = next ? document.querySelector<HTMLElement>(`[data-field-id="${next.id}"]`) : document.querySelector<HTMLElement>('[data-testid^="palette-"]');
        target?.focus();
      });
    }
    onChange();
  });
  const selectedField = fields.data?.find((f) => f.id === selected) ?? null;
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
        if (e.target !== e.currentTarget) return;
        if (armed) void place.run(armed, page, pointOf(e).x, pointOf(e).y);
        else setSelected(null);
      }}
    >
      {fields.data
        ?.filter((f) => f.page === page)
        .map((f) => (
          <FieldBox
            key={f.id}
            field={f}
            color={colorOf(f.signerId)}
            label={nameOf(f)}
            describedBy="field-keys-help"
            selected={f.id === selected}
            onSelect={() => setSelected(f.id)}
            onDeselect={() => setSelected(null)}
            onBox={(box: Box) => edit(f.id, box)}
            onCommit={() => saveBox(f.id)}
            onNudge={(kind, dx, dy) => nudge(f.id, kind, dx, dy)}
            onDelete={() => void removeField.run(f, true)}
            onBlur={() => flushNudge(f.id)}
          />
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
        <Card title="Fields" actions={<span className="muted" role="status">{saving > 0 ? 'Saving…' : ''}</span>}>
          <p className="muted">Drag a field onto the page (or select it and click the page) for the selected signer.</p>
          <p className="muted" id="field-keys-help">
            Drag a placed field to move it and its corners to resize it. With a field focused: arrow keys move it (Shift: further), Alt with an arrow key resizes it, Delete removes it, Escape deselects it.
          </p>
          <div className="docs-sr-only" role="status" aria-live="polite">
            {announcement}
          </div>
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
          <ErrorBanner error={place.error ?? removeField.error ?? saveError ?? fields.error} />
          {!signerId && <Notice kind="warning">Add a signer to place fields.</Notice>}
        </Card>
        {selectedField && (
          <FieldSettings
            key={selectedField.id}
            field={selectedField}
            signers={fillable}
            onChange={(change) => {
              edit(selectedField.id, change);
              save(selectedField.id, change);
              if (change.signerId) onChange();
            }}
            onDelete={() => void removeField.run(selectedField)}
            onDone={() => setSelected(null)}
          />
        )}
      </div>
      <PdfPages path={`/api/documents/${request.documentId}/content`} width={680} overlay={overlay} />
    </div>
  );
}
