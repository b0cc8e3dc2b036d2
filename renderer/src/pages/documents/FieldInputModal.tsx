import { useState } from 'react';
import { Button, Modal, Tabs, TextInput } from '../../ui/components';
import { SignaturePad } from './SignaturePad';
import { FIELD_LABELS, type Field } from './types';

/**
 * Collects one field's value: a drawn or typed signature, a date, or text. Enter applies (the body
 * is a form), so the whole dialog works from the keyboard; a signature opened from the keyboard
 * starts on "Type", since drawing needs a pointer.
 */
export function FieldInputModal({
  field,
  signerName,
  initial: given,
  initialMode = 'draw',
  onClose,
  onSave,
}: {
  field: Field;
  signerName: string;
  initial?: string;
  initialMode?: 'draw' | 'type';
  onClose: () => void;
  onSave: (value: string) => void;
}) {
  const isSignature = field.type === 'signature' || field.type === 'initials';
  const [mode, setMode] = useState<'draw' | 'type'>(initialMode);
  const [drawn, setDrawn] = useState<string | null>(null);
  const fallback = field.type === 'initials' ? signerName.split(/\s+/).map((w) => w[0]).join('') : isSignature ? signerName : '';
  const [typed, setTyped] = useState(given && !given.startsWith('data:') ? given : fallback);
  const value = isSignature && mode === 'draw' ? drawn : typed.trim() || null;
  const title = field.label ?? FIELD_LABELS[field.type];
  const formId = `field-form-${field.id}`;
  return (
    <Modal
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button type="button" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" disabled={!value}>
            Apply
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (value) onSave(value);
        }}
      >
        {isSignature ? (
          <>
            <Tabs
              tabs={[
                { value: 'draw', label: 'Draw' },
                { value: 'type', label: 'Type' },
              ]}
              value={mode}
              onChange={setMode}
            />
            {mode === 'draw' ? (
              <SignaturePad onChange={setDrawn} />
            ) : (
              <TextInput label="Type your name" value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={100} autoComplete="name" className="input typed-signature-input" />
            )}
          </>
        ) : field.type === 'date' ? (
          <TextInput label={title} type="date" value={typed} onChange={(e) => setTyped(e.target.value)} required />
        ) : (
          <TextInput label={title} value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={1000} />
        )}
      </form>
    </Modal>
  );
}
