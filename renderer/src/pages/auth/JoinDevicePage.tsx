import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../../session';
import { Button, ErrorBanner, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { fieldErrorsOf, syncApi } from '../sync/sync-api';
import { AuthCard } from './AuthCard';
import { useConfirmation } from '../sync/ConfirmationCode';

/** A fresh install joins an entity another device linked: hosted URL, add-device code, and the account. */
export function JoinDevicePage() {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form, setForm] = useState({ hostedUrl: params.get('hostedUrl') ?? '', code: params.get('code') ?? '', email: '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const confirmation = useConfirmation();
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => {
    confirmation.reset(); // other credentials: the code asked for no longer applies
    setForm({ ...form, [k]: e.target.value });
  };
  const join = useAction(async () => {
    setFieldErrors({});
    try {
      const joined = await syncApi.join({ ...form, ...confirmation.body() });
      // A new account's address is confirmed first: the form asks for the mailed code.
      if (confirmation.asked(joined)) return;
      session.selectEntity(joined.entity.id);
    } catch (err) {
      setFieldErrors(fieldErrorsOf(err));
      throw err;
    }
    await session.refresh();
    navigate('/');
  });
  return (
    <AuthCard
      title="Join from another device"
      lead="On a device that already has your business, open Settings → Sync → Add a device, and enter what it shows here."
      footer={
        session.setupNeeded ? (
          <>
            New to Bureau? <Link to="/signup">Set up Bureau</Link>
          </>
        ) : (
          <>
            Already set up here? <Link to="/">Sign in</Link>
          </>
        )
      }
    >
      <form className="form" onSubmit={(e) => (e.preventDefault(), void join.run())}>
        <ErrorBanner error={join.error} />
        <TextInput label="Hosted URL" inputMode="url" autoComplete="url" placeholder="https://bureau.example.com" value={form.hostedUrl} onChange={set('hostedUrl')} error={fieldErrors.hostedUrl} required autoFocus />
        <TextInput label="Add-device code" autoComplete="one-time-code" autoCapitalize="characters" spellCheck={false} value={form.code} onChange={set('code')} error={fieldErrors.code} required />
        <TextInput label="E-mail" type="email" autoComplete="email" value={form.email} onChange={set('email')} error={fieldErrors.email} required />
        <TextInput label="Password" type="password" autoComplete="current-password" value={form.password} onChange={set('password')} error={fieldErrors.password} hint="The password of your Bureau account." required />
        {confirmation.field}
        <Button variant="primary" type="submit" busy={join.pending}>
          {confirmation.sentTo ? 'Confirm and join' : 'Join and sign in'}
        </Button>
      </form>
      {join.pending && <p className="muted" role="status">Copying your business to this device…</p>}
    </AuthCard>
  );
}
