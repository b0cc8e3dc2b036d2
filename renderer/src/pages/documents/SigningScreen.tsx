import { useRef, useState, type CSSProperties, type MouseEvent } from 'react';
import { api } from '../../api';
import { Badge, Button, Card, ErrorBanner, Modal, Notice, Spinner, TextArea } from '../../ui/components';
import { formatDateTime, useAction, useAsync } from '../../ui/hooks';
import { downloadSignedPdf } from './docs-api';
import { FieldInputModal } from './FieldInputModal';
import { PdfPages } from './PdfPages';
import { FIELD_LABELS, STATUS_TONE, type Field, type SigningView } from './types';

/** Filled in from the signer's details; shown but not edited. */
const READ_ONLY: Field['type'][] = ['name', 'email'];
const ZOOMS = [1, 1.5, 2, 2.5];

/** Reading order: page by page, top to bottom, left to right within a line. */
function readingOrder(a: Field, b: Field): number {
  if (a.page !== b.page) return a.page - b.page;
  if (Math.abs(a.y - b.y) > 0.01) return a.y - b.y;
  return a.x - b.x;
}

const isImage = (v: unknown): v is string => typeof v === 'string' && v.startsWith('data:image/png');

/**
 * The signer's view: fill the fields on the document, then finish, or decline.
 *
 * Built for phones and assistive technology alike: the document fits the screen's width and can be
 * zoomed; every field is a real control (a button, or a checkbox that Space toggles) in reading
 * order with a name that says what it is, whether it is required and what it holds; "Next field"
 * walks the signer through the fields with progress ("Field 2 of 5").
 *
 * `inPerson`: the signer is signing on this device, hosted by the signed-in user; the server then
 * records the signing as in person and does not count the host opening it as the signer viewing it.
 */
export function SigningScreen({ token, inPerson = false, onFinished }: { token: string; inPerson?: boolean; onFinished?: (view: SigningView) => void }) {
  const query = inPerson ? { inPerson: 'true' } : undefined;
  const view = useAsync(() => api.get<SigningView>(`/api/sign/${token}`, query), [token, inPerson]);
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [editing, setEditing] = useState<{ field: Field; mode: 'draw' | 'type' } | null>(null);
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const [zoom, setZoom] = useState(1);
  const [current, setCurrent] = useState(-1);
  const controls = useRef(new Map<string, HTMLButtonElement>());
  const submit = useAction(async (body: unknown) => {
    const result = await api.post<SigningView>(`/api/sign/${token}`, body, query);
    view.setData(result);
    onFinished?.(result);
  });
  const download = useAction(() => downloadSignedPdf(`/api/sign/${token}/document`, view.data!.request.documentName));
  if (view.error) return <ErrorBanner error={view.error} />;
  if (!view.data) return <Spinner />;
  const v = view.data;
  const today = new Date().toISOString().slice(0, 10);
  const display = (f: Field): string | boolean | null => {
    if (f.value !== null) return f.value;
    if (f.id in values) return values[f.id];
    if (f.type === 'name') return v.signer.name;
    if (f.type === 'email') return v.signer.email;
    if (f.type === 'date') return today;
    return null;
  };
  const ordered = [...v.fields].sort(readingOrder);
  const editable = (f: Field) => v.canSign && !READ_ONLY.includes(f.type);
  const fillable = ordered.filter(editable);
  const isFilled = (f: Field) => (f.type === 'checkbox' ? values[f.id] === true : Boolean(display(f)));
  const done = fillable.filter(isFilled).length;
  const missing = fillable.filter((f) => f.required && !isFilled(f));
  const finish = () => void submit.run({ action: 'sign', fields: Object.entries(values).map(([fieldId, value]) => ({ fieldId, value })) });

  /** Scrolls a field into view (both ways, for a zoomed page) and gives it focus. */
  const goTo = (index: number) => {
    const f = fillable[index];
    if (!f) return;
    setCurrent(index);
    const el = controls.current.get(f.id);
    el?.scrollIntoView({ block: 'center', inline: 'center' });
    el?.focus({ preventScroll: true });
  };
  /** The next field still to fill after the current one (wrapping), else simply the next one. */
  const next = () => {
    const n = fillable.length;
    for (let step = 1; step <= n; step++) {
      const i = (current + step + n) % n;
      if (!isFilled(fillable[i])) return goTo(i);
    }
    goTo((current + 1) % n);
  };

  const nameOf = (f: Field) => `${f.label ?? FIELD_LABELS[f.type]}${f.required && editable(f) ? ' (required)' : ''}`;
  const stateOf = (f: Field, value: string | boolean | null): string => {
    if (READ_ONLY.includes(f.type)) return `${String(value ?? '')}, filled in for you`;
    if (!value) return 'empty';
    if (isImage(value)) return 'drawn signature';
    return f.type === 'signature' || f.type === 'initials' ? `signed as ${String(value)}` : String(value);
  };
  const open = (f: Field, e: MouseEvent) => {
    // detail is 0 when the button was pressed with the keyboard: drawing needs a pointer, so typing comes first.
    setEditing({ field: f, mode: e.detail === 0 ? 'type' : 'draw' });
  };

  const overlay = (page: number) =>
    ordered
      .filter((f) => f.page === page)
      .map((f) => {
        const value = display(f);
        const can = editable(f);
        const filled = can ? isFilled(f) : Boolean(value);
        const index = fillable.indexOf(f);
        const style: CSSProperties = { left: `${f.x * 100}%`, top: `${f.y * 100}%`, width: `${f.width * 100}%`, height: `${f.height * 100}%` };
        const common = {
          ref: (el: HTMLButtonElement | null) => {
            if (el) controls.current.set(f.id, el);
            else controls.current.delete(f.id);
          },
          type: 'button' as const,
          style,
          className: `field-box signing-field ${can ? 'fillable' : ''} ${filled ? 'filled' : ''} ${index >= 0 && index === current ? 'current' : ''}`,
          'data-testid': 'field-box',
          'data-field-type': f.type,
          onFocus: () => index >= 0 && setCurrent(index),
        };
        if (f.type === 'checkbox') {
          const checked = value === true || value === 'true';
          return (
            <button
              key={f.id}
              {...common}
              role="checkbox"
              aria-checked={checked}
              aria-required={f.required && can}
              aria-label={nameOf(f)}
              aria-disabled={!can || undefined}
              onClick={can ? () => setValues({ ...values, [f.id]: values[f.id] !== true }) : undefined}
            >
              <span className="field-content" aria-hidden>
                {checked ? '☑' : '☐'}
              </span>
            </button>
          );
        }
        return (
          <button key={f.id} {...common} aria-label={`${nameOf(f)}: ${stateOf(f, value)}`} aria-haspopup={can ? 'dialog' : undefined} aria-disabled={!can || undefined} onClick={can ? (e) => open(f, e) : undefined}>
            <span className="field-content" aria-hidden>
              {isImage(value) ? (
                <img src={value} alt="" />
              ) : (
                <span className={value && (f.type === 'signature' || f.type === 'initials') ? 'typed-signature' : undefined}>{value ? String(value) : `${FIELD_LABELS[f.type]}${f.required ? ' *' : ''}`}</span>
              )}
            </span>
          </button>
        );
      });

  const zoomIndex = ZOOMS.indexOf(zoom);
  return (
    <div className="stack signing-screen">
      <Card
        title={v.request.title}
        actions={
          <>
            <Badge tone={STATUS_TONE[v.request.status]}>{v.request.status}</Badge>
            {v.canSign && (
              <Button variant="ghost" onClick={() => setDeclining(true)}>
                Decline
              </Button>
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
        {v.canSign && fillable.length > 0 && <p className="muted">Tap or tab to each highlighted field to fill it, or use “Next field”.</p>}
        <ErrorBanner error={submit.error ?? download.error} />
      </Card>
      <div className="zoom-bar" role="group" aria-label="Zoom">
        <Button variant="ghost" aria-label="Zoom out" disabled={zoomIndex <= 0} onClick={() => setZoom(ZOOMS[zoomIndex - 1])}>
          −
        </Button>
        <span aria-live="polite">{Math.round(zoom * 100)}%</span>
        <Button variant="ghost" aria-label="Zoom in" disabled={zoomIndex >= ZOOMS.length - 1} onClick={() => setZoom(ZOOMS[zoomIndex + 1])}>
          +
        </Button>
        {zoom !== 1 && (
          <Button variant="ghost" onClick={() => setZoom(1)}>
            Fit width
          </Button>
        )}
      </div>
      <PdfPages key={v.request.status} path={`/api/sign/${token}/document`} width={720} fit zoom={zoom} overlay={v.request.status === 'completed' ? undefined : overlay} />
      {v.canSign && (
        <div className="signing-guide" role="region" aria-label="Signing progress">
          <div className="grow">
            <div aria-live="polite" data-testid="signing-progress">
              {fillable.length === 0 ? 'Nothing to fill in' : current >= 0 ? `Field ${current + 1} of ${fillable.length}` : `${fillable.length} field${fillable.length === 1 ? '' : 's'} to fill`}
              {fillable.length > 0 && <span className="muted"> · {missing.length === 0 ? 'ready to finish' : `${missing.length} required left`}</span>}
            </div>
            {fillable.length > 0 && (
              <div className="progress" role="progressbar" aria-label="Fields filled" aria-valuemin={0} aria-valuemax={fillable.length} aria-valuenow={done}>
                <div style={{ width: `${(done / fillable.length) * 100}%` }} />
              </div>
            )}
          </div>
          {fillable.length > 0 && (
            <Button variant={missing.length > 0 ? 'primary' : 'secondary'} onClick={next}>
              Next field
            </Button>
          )}
          <Button variant="primary" busy={submit.pending} disabled={missing.length > 0} onClick={finish}>
            Finish signing
          </Button>
        </div>
      )}
      {editing && (
        <FieldInputModal
          field={editing.field}
          signerName={v.signer.name}
          initial={typeof values[editing.field.id] === 'string' ? (values[editing.field.id] as string) : editing.field.type === 'date' ? today : undefined}
          initialMode={editing.mode}
          onClose={() => setEditing(null)}
          onSave={(value) => {
            setValues({ ...values, [editing.field.id]: value });
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
