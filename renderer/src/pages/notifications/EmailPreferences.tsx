import { client, invalidateEntity, unwrap, useEntityQuery } from '../../api';
import { Card, ErrorBanner, Spinner } from '../../ui/components';
import { useAction } from '../../ui/hooks';

/** Per kind of notification: also by e-mail, or not. The choice is the signed-in person's, on all her devices. */
export function EmailPreferences() {
  const prefs = useEntityQuery(['notifications', 'email-preferences'], () => unwrap(client.GET('/api/notifications/email-preferences')));
  const save = useAction(async (kind: string, email: boolean) => {
    await unwrap(client.PUT('/api/notifications/email-preferences', { body: { preferences: { [kind]: email } } }));
    await invalidateEntity('notifications', 'email-preferences');
  });
  return (
    <Card title="E-mail me too">
      <p className="muted nt-prefs-intro">Choose which notifications also come to your e-mail address. Your choice applies on all your devices; each e-mail is sent once.</p>
      <ErrorBanner error={prefs.error?.message ?? save.error} onRetry={() => void prefs.refetch()} />
      {prefs.isPending ? (
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
