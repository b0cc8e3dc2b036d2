import { useState } from 'react';
import { client, unwrap } from '../../api';
import { Button, Card, ErrorBanner, Notice, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';

/** Your one password: changed here, it works on all your devices (through the hosted account when you have one). */
export function PasswordSection() {
  const [form, setForm] = useState({ currentPassword: '', newPassword: '' });
  const [done, setDone] = useState(false);
  const change = useAction(async () => {
    setDone(false);
    await unwrap(client.POST('/api/auth/password', { body: form }));
    setForm({ currentPassword: '', newPassword: '' });
    setDone(true);
  });
  return (
    <Card title="Your password">
      <form className="form" onSubmit={(e) => (e.preventDefault(), void change.run())} style={{ maxWidth: 420 }}>
        <ErrorBanner error={change.error} />
        {done && <Notice kind="success">Password changed. Your other devices take the new one the next time you sign in there.</Notice>}
        <TextInput label="Current password" type="password" autoComplete="current-password" value={form.currentPassword} onChange={(e) => setForm({ ...form, currentPassword: e.target.value })} required />
        <TextInput
          label="New password"
          type="password"
          autoComplete="new-password"
          minLength={10}
          value={form.newPassword}
          onChange={(e) => setForm({ ...form, newPassword: e.target.value })}
          hint="At least 10 characters. One password on all your devices: when a business is linked, it changes on the hosted instance too (or, if that cannot be reached, nowhere)."
          required
        />
        <Button variant="primary" type="submit" busy={change.pending}>
          Change password
        </Button>
      </form>
    </Card>
  );
}
