import { useState, type DragEvent, type MouseEvent } from 'react';
import { client, unwrap } from '../../api';
import { Badge, Button, Card, ErrorBanner, Notice } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { FieldBox, type Box } from './FieldBox';
import { FieldSettings } from './FieldSettings';
import { PdfPages } from './PdfPages';
import { useParties } from './queries';
import { SignersCard } from './SignersCard';
import { FIELD_LABELS, SIGNER_COLORS, type FieldType, type SignatureRequest } from './types';
import { useFieldEditor } from './useFieldEditor';

const FIELD_TYPES = Object.keys(FIELD_LABELS) as FieldType[];

/** Draft editor: signers, fields dragged onto the rendered pages, then send. */
export function RequestEditor({ request, onChange }: { request: SignatureRequest; onChange: () => void }) {
  const parties = useParties();
  const fillable = request.signers.filter((s) => s.role === 'signer' || s.role === 'approver');
  const [active, setActive] = useState<string | null>(fillable[0]?.id ?? null);
  const [armed, setArmed] = useState<FieldType | null>(null);
  const colorOf = (signerId: string) => SIGNER_COLORS[request.signers.findIndex((s) => s.id === signerId) % SIGNER_COLORS.length];
  const signerId = active && fillable.some((s) => s.id === active) ? active : (fillable[0]?.id ?? null);
  const editor = useFieldEditor(request, signerId, onChange);
  const { fields, selected, setSelected, selectedField, announcement, saving, saveError, place, edit, save, saveBox, nudge, flushNudge, removeField, nameOf } = editor;
  const decide = async (action: 'send' | 'cancel') => {
    await unwrap(client.PATCH('/api/documents/signature-requests/{requestId}', { params: { path: { requestId: request.id } }, body: { action } }));
    onChange();
  };
  const send = useAction(() => decide('send'));
  const cancel = useAction(() => decide('cancel'));

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
        <SignersCard request={request} parties={parties.data} active={signerId} onActive={setActive} colorOf={colorOf} onChange={onChange} onRemoved={() => void fields.refetch()} />
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
          <ErrorBanner error={place.error ?? removeField.error ?? saveError ?? fields.error?.message} />
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
      <PdfPages source={{ document: request.documentId }} width={680} overlay={overlay} />
    </div>
  );
}
