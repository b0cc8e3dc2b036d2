import { useState } from 'react';
import { Button, Card, SelectInput, TextInput } from '../../ui/components';
import { FIELD_LABELS, type Field, type Signer } from './types';

type Change = Partial<Pick<Field, 'label' | 'required' | 'signerId'>>;

/**
 * The selected field's settings: its label (shown to the signer instead of the type), required
 * or optional, whose field it is, and delete. The label is saved on Enter or when leaving it.
 */
export function FieldSettings({ field, signers, onChange, onDelete, onDone }: { field: Field; signers: Signer[]; onChange: (change: Change) => void; onDelete: () => void; onDone: () => void }) {
  const [label, setLabel] = useState(field.label ?? '');
  const commitLabel = () => {
    const next = label.trim();
    if (next !== (field.label ?? '')) onChange({ label: next || null });
  };
  return (
    <Card
      title="Selected field"
      actions={
        <Button variant="ghost" onClick={onDone}>
          Done
        </Button>
      }
    >
      <p className="muted">
        {FIELD_LABELS[field.type]} field · page {field.page}
      </p>
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          commitLabel();
        }}
      >
        <TextInput label="Field label" value={label} onChange={(e) => setLabel(e.target.value)} onBlur={commitLabel} maxLength={120} placeholder={FIELD_LABELS[field.type]} hint="What the signer sees instead of the field type" />
        <label className="checkbox">
          <input type="checkbox" checked={field.required} onChange={(e) => onChange({ required: e.target.checked })} /> Required (the signer must fill it in)
        </label>
        {signers.length > 1 && <SelectInput label="For signer" value={field.signerId} onChange={(e) => onChange({ signerId: e.target.value })} options={signers.map((s) => ({ value: s.id, label: s.name }))} />}
        <div className="row">
          <Button type="button" variant="danger" onClick={onDelete}>
            Delete field
          </Button>
        </div>
      </form>
    </Card>
  );
}
