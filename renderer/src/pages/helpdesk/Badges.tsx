import { Badge } from '../../ui/components';
import { PRIORITIES, STATUSES, type TicketPriority, type TicketStatus } from './types';

export function StatusBadge({ status }: { status: TicketStatus }) {
  const s = STATUSES.find((x) => x.value === status)!;
  return <Badge tone={s.tone}>{s.label}</Badge>;
}

export function PriorityBadge({ priority }: { priority: TicketPriority }) {
  const p = PRIORITIES.find((x) => x.value === priority)!;
  return <Badge tone={p.tone}>{p.label}</Badge>;
}
