import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

/** A labelled form control; the label is tied to the control for screen readers and clicks. */
export function Field({ label, hint, error, children, id }: { label: string; hint?: ReactNode; error?: string | null; children: (id: string) => ReactNode; id?: string }) {
  const auto = useId();
  const fieldId = id ?? auto;
  return (
    <div className={`field ${error ? 'field-invalid' : ''}`}>
      <label htmlFor={fieldId}>{label}</label>
      {children(fieldId)}
      {error ? <div className="field-error">{error}</div> : hint ? <div className="field-hint">{hint}</div> : null}
    </div>
  );
}

export function TextInput({ label, hint, error, ...rest }: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode; error?: string | null }) {
  return <Field label={label} hint={hint} error={error}>{(id) => <input id={id} className="input" {...rest} />}</Field>;
}

export function TextArea({ label, hint, error, ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; hint?: ReactNode; error?: string | null }) {
  return <Field label={label} hint={hint} error={error}>{(id) => <textarea id={id} className="input textarea" {...rest} />}</Field>;
}

export function SelectInput({ label, hint, error, options, ...rest }: SelectHTMLAttributes<HTMLSelectElement> & { label: string; hint?: ReactNode; error?: string | null; options: { value: string; label: string }[] }) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(id) => (
        <select id={id} className="input" {...rest}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
