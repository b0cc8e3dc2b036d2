import { useState } from 'react';
import { useSession } from '../../session';
import { Button, Card, ErrorBanner, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { fieldErrorsOf, syncApi } from './sync-api';
import { publishSyncStatus } from './useSyncStatus';
import { useConfirmation } from './ConfirmationCode';

/** Not linked yet: the hosted instance and the account to sign in to it with. */
export function LinkForm({ entityId }: { entityId: string }) {
  const session = useSession();
  const [form, setForm] = useState({ hostedUrl: '', email: session.user?.email ?? '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const confirmation = useConfirmation();
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => {
    confirmation.reset(); // other credentials: the code asked for no longer applies
    setForm({ ...form, [k]: e.target.value });
  };
  const link = useAction(async () => {
    setFieldErrors({});
    try {
      const answer = await syncApi.link({ entityId, ...form, ...confirmation.body() });
      if (!confirmation.asked(answer)) publishSyncStatus(entityId, answer);
    } catch (err) {
      setFieldErrors(fieldErrorsOf(err));
      throw err;
    }
  });
  return (
    <Card title="Link to a hosted instance">
      <p className="muted" style={{ marginTop: 0 }}>
        Linking copies <strong>{session.entity?.name}</strong> to a hosted Bureau instance and keeps it in sync, so your other devices can join it and people outside the business can reach its public pages.
        Passwords, wallet keys and API keys never leave this device.
      </p>
      <form className="form" style={{ maxWidth: 460 }} onSubmit={(e) => (e.preventDefault(), void link.run())}>
        <ErrorBanner error={link.error} />
        <TextInput label="Hosted URL" inputMode="url" autoComplete="url" placeholder="https://bureau.example.com" value={form.hostedUrl} onChange={set('hostedUrl')} error={fieldErrors.hostedUrl} required />
        <TextInput label="E-mail" type="email" autoComplete="email" value={form.email} onChange={set('email')} error={fieldErrors.email} required />
        <TextInput
          label="Password"
          type="password"
          autoComplete="current-password"
          value={form.password}
          onChange={set('password')}
          error={fieldErrors.password}
          hint="The password you sign in with on this device: your account on the hosted instance uses the same one (it is created with it the first time, once you confirm your e-mail address), so all your devices share one password."
          required
        />
        {confirmation.field}
        <div>
          <Button variant="primary" type="submit" busy={link.pending}>
            {confirmation.sentTo ? 'Confirm and link' : 'Link and sync'}
          </Button>
        </div>
      </form>
    </Card>
  );
}
