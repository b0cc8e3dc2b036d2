import { useState, type MouseEvent } from 'react';
import { client, unwrap, type ApiBody } from '../../api';
import { ErrorBanner, Spinner } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { downloadSignedPdf } from './docs-api';
import { FieldInputModal } from './FieldInputModal';
import { PdfPages } from './PdfPages';
import { setSigningView, useSigningView } from './queries';
import { fieldName, fieldState, READ_ONLY, readingOrder, useFieldWalk } from './signing-fields';
import { SigningRequestCard } from './SigningRequestCard';
import { DeclineModal, SigningGuide, ZoomBar } from './SigningParts';
import { SigningFieldControl } from './SigningFieldControl';
import type { Field, SigningView } from './types';

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
  const walk = useFieldWalk();
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

  const nameOf = (f: Field) => fieldName(f, editable(f));
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
            isCurrent={index >= 0 && index === walk.current}
            label={f.type === 'checkbox' ? nameOf(f) : `${nameOf(f)}: ${fieldState(f, value)}`}
            register={walk.register(f.id)}
            onFocus={() => index >= 0 && walk.setCurrent(index)}
            onActivate={f.type === 'checkbox' ? () => setValues({ ...values, [f.id]: values[f.id] !== true }) : (e) => open(f, e)}
          />
        );
      });

  return (
    <div className="stack signing-screen">
      <SigningRequestCard
        view={v}
        onDecline={() => setDeclining(true)}
        download={{ pending: download.pending, run: () => void download.run() }}
        hint={v.canSign && fillable.length > 0}
        error={<ErrorBanner error={submit.error ?? download.error} />}
      />
      <ZoomBar zoom={zoom} onZoom={setZoom} />
      <PdfPages key={v.request.status} source={{ signing: token }} width={720} fit zoom={zoom} overlay={v.request.status === 'completed' ? undefined : overlay} />
      {v.canSign && <SigningGuide fillable={fillable.length} current={walk.current} missing={missing.length} done={done} finishing={submit.pending} onNext={() => walk.next(fillable, isFilled)} onFinish={finish} />}
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
