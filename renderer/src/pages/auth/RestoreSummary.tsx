import type { Schema } from '../../api';
import { Badge } from '../../ui/components';
import { formatDateTime } from '../../ui/hooks';
import { formatSize } from '../settings/format';

type RestoreReport = Schema<'RestoreReport'>;

/** What a backup holds (its dry run) or what its restore brought back. */
export function RestoreSummary({ report }: { report: RestoreReport }) {
  const s = report.secrets;
  return (
    <dl className="backup-facts" data-restore="report">
      <dt>Backup of</dt>
      <dd>
        {formatDateTime(report.createdAt)} (Bureau {report.appVersion})
      </dd>
      <dt>Businesses</dt>
      <dd data-field="entities">
        {report.entities.length === 0
          ? 'None'
          : report.entities.map((e) => (
              <div key={e.id}>
                <strong>{e.name}</strong> — {summarize(e.counts)}
              </div>
            ))}
      </dd>
      <dt>Files</dt>
      <dd>
        {report.files.count} ({formatSize(report.files.bytes)})
      </dd>
      <dt>Secrets</dt>
      <dd data-field="secrets">
        {!s.inBackup ? (
          <Badge tone="amber">Not in this backup</Badge>
        ) : report.dryRun ? (
          <Badge tone="green">Included (the recovery passphrase opens them)</Badge>
        ) : s.missing.length ? (
          <Badge tone="amber">Not restored: {s.missing.length} kind(s) missing</Badge>
        ) : (
          <Badge tone="green">{s.restored} restored</Badge>
        )}
        {/* Before the restore, the passphrase field says what its absence means. */}
        {s.note && !(report.dryRun && s.inBackup) && <div className="muted">{s.note}</div>}
      </dd>
    </dl>
  );
}

/** The counts a person recognizes, not every table. */
function summarize(counts: Record<string, number>): string {
  const shown: [string, string][] = [
    ['helpdesk_tickets', 'tickets'],
    ['ledger_events', 'ledger events'],
    ['documents', 'documents'],
    ['signature_requests', 'signature requests'],
    ['wallet_notes', 'wallet notes'],
  ];
  const parts = shown.filter(([t]) => counts[t]).map(([t, label]) => `${counts[t]} ${label}`);
  return parts.length ? parts.join(', ') : 'no records yet';
}
