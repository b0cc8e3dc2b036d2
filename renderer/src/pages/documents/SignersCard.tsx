import { useState } from 'react';
import { client, unwrap, type ApiBody } from '../../api';
import { Button, Card, ErrorBanner, SelectInput, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import type { Party, SignatureRequest } from './types';

interface Props {
  request: SignatureRequest;
  parties: Party[] | undefined;
  /** The signer whose fields are being placed. */
  active: string | null;
  onActive: (signerId: string) => void;
  colorOf: (signerId: string) => string;
  onChange: () => void;
  onRemoved: () => void;
}

/** A draft's signers: add (with known parties suggested), order, remove, and pick whose fields to place. */
export function SignersCard({ request, parties, active: signerId, onActive: setActive, colorOf, onChange, onRemoved }: Props) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('signer');
  const path = { requestId: request.id };
  const addSigner = useAction(async () => {
    const s = await unwrap(client.POST('/api/documents/signature-requests/{requestId}/signers', { params: { path }, body: { name, email, role: role as ApiBody<'/api/documents/signature-requests/{requestId}/signers'>['role'] } }));
    setName('');
    setEmail('');
    setActive(s.id);
    onChange();
  });
  const reorderSigner = useAction(async (id: string, order: number) => {
    await unwrap(client.PATCH('/api/documents/signature-requests/{requestId}/signers/{signerId}', { params: { path: { ...path, signerId: id } }, body: { order } }));
    onChange();
  });
  const removeSigner = useAction(async (id: string) => {
    await unwrap(client.DELETE('/api/documents/signature-requests/{requestId}/signers/{signerId}', { params: { path: { ...path, signerId: id } } }));
    onChange();
    onRemoved();
  });
  return (
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
            const p = parties?.find((x) => x.email === e.target.value);
            if (p && !name) setName(p.name);
          }}
        />
        <datalist id="signature-parties-email">
          {parties?.map((p) => (
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
  );
}
