import { useState } from 'react';
import { Button, Modal, Tabs, TextInput } from '../../ui/components';
import { SignaturePad } from './SignaturePad';
import { FIELD_LABELS, type Field } from './types';

/** Collects one field's value: a drawn or typed signature, or text. */
export function FieldInputModal({ field, signerName, onClose, onSave }: { field: Field; signerName: string; onClose: () => void; onSave: (value: string) => void }) {
  const isSignature = field.type === 'signature' || field.type === 'initials';
  const [mode, setMode] = useState<'draw' | 'type'>('draw');
  const [drawn, setDrawn] = useState<string | null>(null);
  const initial = field.type === 'initials' ? signerName.split(/\s+/).map((w) => w[0]).join('') : isSignature ? signerName : '';
  const [typed, setTyped] = useState(initial);
  const value = isSignature && mode === 'draw' ? drawn : typed.trim() || null;
  return (
    <Modal
      title={field.label ?? FIELD_LABELS[field.type]}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={!value} onClick={() => value && onSave(value)}>
            Apply
          </Button>
        </>
      }
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
          {mode === 'draw' ? <SignaturePad onChange={setDrawn} /> : <TextInput label="Type your name" value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={100} style={{ fontFamily: 'cursive', fontSize: 24 }} />}
        </>
      ) : (
        <TextInput label={field.label ?? FIELD_LABELS[field.type]} value={typed} onChange={(e) => setTyped(e.target.value)} maxLength={1000} autoFocus />
      )}
    </Modal>
  );
}
