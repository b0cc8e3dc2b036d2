import { useRef, useState } from 'react';
import { client, unwrap, type ApiBody } from '../../api';
import { useAction } from '../../ui/hooks';
import { boxOf, movedBox, resizedBox } from './field-geometry';
import { refreshRequestFields, requestFieldsNow, setRequestFields, useRequestFields } from './queries';
import { FIELD_LABELS, FIELD_SIZES, type Field, type FieldType, type SignatureRequest } from './types';

type FieldChange = ApiBody<'/api/documents/signature-requests/{requestId}/fields/{fieldId}', 'patch'>;
const clamp = (v: number, max: number) => Math.min(Math.max(v, 0), max);

/**
 * A draft's fields: place, move, resize, change and remove them. Edits show at once (in the query
 * cache) and are saved in the background.
 */
export function useFieldEditor(request: SignatureRequest, signerId: string | null, onChange: () => void) {
  const requestId = request.id;
  const path = { requestId };
  const fields = useRequestFields(requestId);
  const [selected, setSelected] = useState<string | null>(null);
  const place = useAction(async (type: FieldType, page: number, x: number, y: number) => {
    if (!signerId) throw new Error('Add a signer first');
    const size = FIELD_SIZES[type];
    const before = new Set(fields.data?.map((f) => f.id));
    const placed = await unwrap(client.POST('/api/documents/signature-requests/{requestId}/fields', { params: { path }, body: { fields: [{ signerId, type, page, x: clamp(x - size.width / 2, 1 - size.width), y: clamp(y - size.height / 2, 1 - size.height), ...size }] } }));
    setRequestFields(requestId, () => placed);
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
    enqueue(() => unwrap(client.PATCH('/api/documents/signature-requests/{requestId}/fields/{fieldId}', { params: { path: { ...path, fieldId: id } }, body: change as FieldChange }))).catch((err: Error) => {
      setSaveError(err.message);
      void refreshRequestFields(requestId);
    });
  };
  const edit = (id: string, change: Partial<Field>) => setRequestFields(requestId, (list) => list?.map((f) => (f.id === id ? { ...f, ...change } : f)));
  const fieldById = (id: string) => requestFieldsNow(requestId)?.find((f) => f.id === id);
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
    const left = await enqueue(() => unwrap(client.DELETE('/api/documents/signature-requests/{requestId}/fields', { params: { path }, body: { fieldIds: [f.id] } })));
    setRequestFields(requestId, () => left);
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
  return { fields, selected, setSelected, selectedField, announcement, saving, saveError, place, edit, save, saveBox, nudge, flushNudge, removeField, nameOf };
}
