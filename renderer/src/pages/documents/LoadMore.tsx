import { Button } from '../../ui/components';

/** "Load more" while the server has more rows, with how many of how many are shown. */
export function LoadMore({ shown, total, noun, more }: { shown: number; total: number | null; noun: string; more: { has: boolean; loading: boolean; load: () => void } }) {
  if (!more.has) return null;
  return (
    <div className="row">
      <Button busy={more.loading} onClick={more.load}>
        Load more
      </Button>
      {total !== null && (
        <span className="muted">
          {shown} of {total} {noun}
        </span>
      )}
    </div>
  );
}
