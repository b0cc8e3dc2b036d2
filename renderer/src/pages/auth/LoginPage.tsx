import { useState } from 'react';
import { Link } from 'react-router';
import { client, unwrap } from '../../api';
import { useSession } from '../../session';
import { Button, ErrorBanner, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { AuthCard } from './AuthCard';

export function LoginPage() {
  const session = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useAction(async () => {
    await unwrap(client.POST('/api/auth/login', { body: { email, password } }));
    await session.refresh();
  });
  return (
    <AuthCard
      title="Sign in"
      lead="Welcome back. Your data stays on this device."
      footer={
        <>
          New here? <Link to="/signup">Create an account</Link>
          <br />
          Invited by a colleague? <Link to="/accept-invitation">Accept an invitation</Link> · Using Bureau on another device? <Link to="/join">Join from another device</Link>
        </>
      }
    >
      <form className="form" onSubmit={(e) => (e.preventDefault(), void login.run())}>
        <ErrorBanner error={login.error} />
        <TextInput label="E-mail" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoFocus />
        <TextInput label="Password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        <Button variant="primary" type="submit" busy={login.pending}>
          Sign in
        </Button>
      </form>
    </AuthCard>
  );
}
