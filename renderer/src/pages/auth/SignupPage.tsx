import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { client, unwrap } from '../../api';
import { fieldErrorsOf } from '../sync/sync-api';
import { useSession } from '../../session';
import { Button, ErrorBanner, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';
import { AuthCard } from './AuthCard';

/** Onboarding: the first account and the business entity it owns. */
export function SignupPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [form, setForm] = useState({ name: '', email: '', password: '', entityName: '' });
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const set = (k: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [k]: e.target.value });
  const signup = useAction(async () => {
    setFieldErrors({});
    try {
      await unwrap(client.POST('/api/auth/signup', { body: form }));
    } catch (err) {
      setFieldErrors(fieldErrorsOf(err));
      throw err;
    }
    await session.refresh();
    navigate('/');
  });
  return (
    <AuthCard
      title="Set up Bureau"
      lead={session.setupNeeded ? 'Welcome! Bureau is new on this device: create your account and your business to begin.' : 'Create your account and your first business entity.'}
      footer={
        <>
          {/* On a fresh install there is no account to sign in to yet. */}
          {!session.setupNeeded && (
            <>
              Already have an account? <Link to="/">Sign in</Link>
              <br />
            </>
          )}
          Invited by a colleague? <Link to="/accept-invitation">Accept an invitation</Link> · Using Bureau on another device? <Link to="/join">Join from another device</Link>
          {session.setupNeeded && (
            <>
              <br />
              Moving to this machine? <Link to="/restore">Restore from a backup</Link>
            </>
          )}
        </>
      }
    >
      <form className="form" onSubmit={(e) => (e.preventDefault(), void signup.run())}>
        <ErrorBanner error={signup.error} />
        <TextInput label="Your name" autoComplete="name" value={form.name} onChange={set('name')} error={fieldErrors.name} required autoFocus />
        <TextInput label="E-mail" type="email" autoComplete="email" value={form.email} onChange={set('email')} error={fieldErrors.email} required />
        <TextInput label="Password" type="password" autoComplete="new-password" value={form.password} onChange={set('password')} error={fieldErrors.password} hint="At least 10 characters." required minLength={10} />
        <TextInput label="Business name" value={form.entityName} onChange={set('entityName')} error={fieldErrors.entityName} placeholder="Acme Ltd" required />
        <Button variant="primary" type="submit" busy={signup.pending}>
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}
