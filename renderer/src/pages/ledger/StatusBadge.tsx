import { Badge } from '../../ui/components';
import { statusInfo, type PostingStatus } from './types';

export function StatusBadge({ status }: { status: PostingStatus }) {
  const info = statusInfo(status);
  return <Badge tone={info.tone}>{info.label}</Badge>;
}
