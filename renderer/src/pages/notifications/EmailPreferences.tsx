import type { z } from 'zod';
import type { emailPreferenceSchema } from '../../../../server/notifications/schemas';
import { api } from '../../api';
import { Card, ErrorBanner, Spinner } from '../../ui/components';
import { useAction, useAsync } from '../../ui/hooks';

type EmailPreference = z.output<typeof emailPreferenceSchema>;

/** Per kind of notification: also by e-mail, or not. The choice is the signed-in person's, on all her devices. */
export function EmailPreferences() {
  const prefs = useAsync(() => api.get<EmailPreference[]>('/api/notifications/email-preferences'));
  const save = useAction(async (kind: string, email: boolean) => {
    await api.put<EmailPreference[]>('/api/notifications/email-preferences', { preferences: { [kind]: email } });
    await prefs.reload();
  });
  return (
    <Card title="E-mail me too">
      <p className="muted nt-prefs-intro">Choose which notifications also come to your e-mail address. Your choice applies on all your devices; each e-mail is sent once.</p>
      <ErrorBanner error={prefs.error ?? save.error} onRetry={() => void prefs.reload()} />
      {prefs.loading && !prefs.data ? (
        <Spinner />
      ) : (
        <ul className="nt-prefs">
          {prefs.data?.map((p) => (
            <li key={p.kind}>
              <label className="checkbox">
                <input type="checkbox" checked={p.email} disabled={save.pending} onChange={(e) => void save.run(p.kind, e.target.checked)} /> {p.label}
              </label>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
