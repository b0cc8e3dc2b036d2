import { useRef, useState, type MouseEvent } from 'react';
import { client, unwrap, type ApiBody } from '../../api';
import { Badge, Button, Card, ErrorBanner, Notice, Spinner } from '../../ui/components';
import { formatDateTime, useAction } from '../../ui/hooks';
import { downloadSignedPdf } from './docs-api';
import { FieldInputModal } from './FieldInputModal';
import { PdfPages } from './PdfPages';
import { setSigningView, useSigningView } from './queries';
import { DeclineModal, SigningGuide, ZoomBar } from './SigningParts';
import { isImage, SigningFieldControl } from './SigningFieldControl';
import { FIELD_LABELS, STATUS_TONE, type Field, type SigningView } from './types';

/** Filled in from the signer's details; shown but not edited. */
const READ_ONLY: Field['type'][] = ['name', 'email'];

/** Reading order: page by page, top to bottom, left to right within a line. */
function readingOrder(a: Field, b: Field): number {
  if (a.page !== b.page) return a.page - b.page;
  if (Math.abs(a.y - b.y) > 0.01) return a.y - b.y;
  return a.x - b.x;
}


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
  const view = useSigningView(token, inPerson);
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [editing, setEditing] = useState<{ field: Field; mode: 'draw' | 'type' } | null>(null);
  const [declining, setDeclining] = useState(false);
  const [zoom, setZoom] = useState(1);
  const [current, setCurrent] = useState(-1);
  const controls = useRef(new Map<string, HTMLButtonElement>());
  const submit = useAction(async (body: ApiBody<'/api/sign/{token}'>) => {
    const result = await unwrap(client.POST('/api/sign/{token}', { params: { path: { token }, query: inPerson ? { inPerson: 'true' } : {} }, body }));
    setSigningView(token, inPerson, result);
    onFinished?.(result);
  });
  const download = useAction(() => downloadSignedPdf({ signing: token }, view.data!.request.documentName));
  if (view.error) return <ErrorBanner error={view.error.message} />;
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
        const index = fillable.indexOf(f);
        return (
          <SigningFieldControl
            key={f.id}
            field={f}
            value={value}
            editable={can}
            filled={can ? isFilled(f) : Boolean(value)}
            isCurrent={index >= 0 && index === current}
            label={f.type === 'checkbox' ? nameOf(f) : `${nameOf(f)}: ${stateOf(f, value)}`}
            register={(el) => {
              if (el) controls.current.set(f.id, el);
              else controls.current.delete(f.id);
            }}
            onFocus={() => index >= 0 && setCurrent(index)}
            onActivate={f.type === 'checkbox' ? () => setValues({ ...values, [f.id]: values[f.id] !== true }) : (e) => open(f, e)}
          />
        );
      });

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
      <ZoomBar zoom={zoom} onZoom={setZoom} />
      <PdfPages key={v.request.status} source={{ signing: token }} width={720} fit zoom={zoom} overlay={v.request.status === 'completed' ? undefined : overlay} />
      {v.canSign && <SigningGuide fillable={fillable.length} current={current} missing={missing.length} done={done} finishing={submit.pending} onNext={next} onFinish={finish} />}
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
      {declining && <DeclineModal busy={submit.pending} onClose={() => setDeclining(false)} onDecline={(reason) => void submit.run({ action: 'decline', reason }).then(() => setDeclining(false))} />}
    </div>
  );
}
