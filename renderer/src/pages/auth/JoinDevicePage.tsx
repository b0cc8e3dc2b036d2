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
  return <JoinForm invitation={false} />;
}

/** A fresh install of a person invited by e-mail: her own account (her name, her password). */
export function AcceptInvitationPage() {
  return <JoinForm invitation />;
}

function JoinForm({ invitation }: { invitation: boolean }) {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [form, setForm] = useState({ hostedUrl: params.get('hostedUrl') ?? '', code: params.get('code') ?? '', email: '', password: '', name: '' });
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const confirmation = useConfirmation();
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => {
    confirmation.reset(); // other credentials: the code asked for no longer applies
    setForm({ ...form, [k]: e.target.value });
  };
  const join = useAction(async () => {
    setFieldErrors({});
    try {
      const { name, ...rest } = form;
      const joined = await syncApi.join({ ...rest, ...(invitation && name.trim() ? { name: name.trim() } : {}), ...confirmation.body() });
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
      title={invitation ? 'Accept an invitation' : 'Join from another device'}
      lead={
        invitation
          ? 'You were invited by e-mail to work with a business on Bureau. Enter the hosted URL and code from the invitation, and choose your own name and password.'
          : 'Your own account, on one more of your devices: on a device that already has your business, open Settings → Sync → Add a device, and enter what it shows here.'
      }
      footer={
        session.setupNeeded ? (
          <>
            New to Bureau? <Link to="/signup">Set up Bureau</Link> · {invitation ? <Link to="/join">Join from another device</Link> : <Link to="/accept-invitation">Accept an invitation</Link>}
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
        <TextInput label={invitation ? 'Invitation code' : 'Add-device code'} autoComplete="one-time-code" autoCapitalize="characters" spellCheck={false} value={form.code} onChange={set('code')} error={fieldErrors.code} required />
        <TextInput label="E-mail" type="email" autoComplete="email" value={form.email} onChange={set('email')} error={fieldErrors.email} hint={invitation ? 'The address the invitation was sent to.' : undefined} required />
        {invitation && <TextInput label="Your name" autoComplete="name" value={form.name} onChange={set('name')} error={fieldErrors.name} maxLength={120} hint="How your colleagues see you." required />}
        <TextInput
          label="Password"
          type="password"
          autoComplete={invitation ? 'new-password' : 'current-password'}
          value={form.password}
          onChange={set('password')}
          error={fieldErrors.password}
          hint={invitation ? 'At least 10 characters. Use the same one on every device you add later (unless you already have a Bureau account with this e-mail: then its password).' : 'The password you sign in with on your other devices: one password for all of them.'}
          required
        />
        {confirmation.field}
        <Button variant="primary" type="submit" busy={join.pending}>
          {confirmation.sentTo ? 'Confirm and join' : invitation ? 'Accept and sign in' : 'Join and sign in'}
        </Button>
      </form>
      {join.pending && <p className="muted" role="status">Copying your business to this device…</p>}
    </AuthCard>
  );
}
