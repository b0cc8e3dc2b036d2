import { useEffect, useState } from 'react';
import { client, entityKey, queryClient, unwrap, useEntityQuery } from '../../api';
import { useSession } from '../../session';
import { Button, Card, ErrorBanner, Notice, TextInput } from '../../ui/components';
import { useAction } from '../../ui/hooks';

const SETTINGS_KEY = ['ledger', 'settings'];

/** Approval thresholds, edited as "USD 10000.00" lines. */
export function ApprovalPolicyCard() {
  const session = useSession();
  const settings = useEntityQuery(SETTINGS_KEY, () => unwrap(client.GET('/api/ledger/settings')));
  const [text, setText] = useState('');
  const [fourEyes, setFourEyes] = useState(false);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!settings.data) return;
    setText(Object.entries(settings.data.approvalThresholds).map(([c, a]) => `${c} ${a}`).join(', '));
    setFourEyes(settings.data.requireSeparateApprover);
  }, [settings.data]);
  const save = useAction(async () => {
    const approvalThresholds: Record<string, string> = {};
    for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
      const [currency, amount] = part.split(/\s+/);
      if (!currency || !amount) throw new Error(`Write each threshold as "CURRENCY amount", e.g. "USD 10000.00"`);
      approvalThresholds[currency.toUpperCase()] = amount;
    }
    queryClient.setQueryData(entityKey(...SETTINGS_KEY), await unwrap(client.PUT('/api/ledger/settings', { body: { approvalThresholds, requireSeparateApprover: fourEyes } })));
    setSaved(true);
  });
  const canEdit = session.can('LEDGER.APPROVE');
  return (
    <Card title="Approval policy">
      <div className="form">
        <p className="muted" style={{ margin: 0 }}>
          Events whose entry moves at least this amount in a currency are held as <em>pending approval</em> until someone with approval rights approves them.
        </p>
        <ErrorBanner error={settings.error?.message ?? save.error} />
        {saved && <Notice kind="success">Saved.</Notice>}
        <TextInput label="Thresholds" placeholder="USD 10000.00, EUR 8000" value={text} disabled={!canEdit} onChange={(e) => (setText(e.target.value), setSaved(false))} hint="Leave empty to post everything at once." />
        <label className="checkbox">
          <input type="checkbox" checked={fourEyes} disabled={!canEdit} onChange={(e) => (setFourEyes(e.target.checked), setSaved(false))} /> Four-eyes rule: whoever recorded a held event cannot approve it
        </label>
        {canEdit && (
          <div>
            <Button variant="primary" busy={save.pending} onClick={() => void save.run()}>
              Save policy
            </Button>
          </div>
        )}
      </div>
    </Card>
  );
}
