import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { client, unwrap } from '../../api';
import { useSession } from '../../session';
import { Button, ErrorBanner, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { AuthCard } from './AuthCard';

export function AcceptInvitePage() {
  const [params] = useSearchParams();
  const session = useSession();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const accept = useAction(async () => {
    await unwrap(client.POST('/api/auth/accept-invite', { body: { token: params.get('token') ?? '', password, ...(name ? { name } : {}) } }));
    await session.refresh();
    navigate('/');
  });
  return (
    <AuthCard title="Join your team" lead="Choose a password to finish setting up your account.">
      <form className="form" onSubmit={(e) => (e.preventDefault(), void accept.run())}>
        <ErrorBanner error={accept.error} />
        <TextInput label="Your name" value={name} onChange={(e) => setName(e.target.value)} autoFocus />
        <TextInput label="Password" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} hint="At least 10 characters." required minLength={10} />
        <Button variant="primary" type="submit" busy={accept.pending}>
          Join
        </Button>
      </form>
    </AuthCard>
  );
}
