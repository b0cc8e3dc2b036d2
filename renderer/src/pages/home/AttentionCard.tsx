import type { ReactNode } from 'react';
import { ErrorBanner, Spinner } from '../../ui/components';

/** One kind of thing waiting: a count, the newest few, and a link to all of them. */
export function AttentionCard({ id, title, count, error, onRetry, empty, more, children }: { id: string; title: string; count: number | undefined; error: string | null; onRetry: () => void; empty: string; more: ReactNode; children: ReactNode }) {
  const headingId = `home-${id}`;
  return (
    <section className="card home-card" aria-labelledby={headingId} data-attention={id}>
      <header className="home-card-header">
        <h3 id={headingId}>{title}</h3>
        {count !== undefined && (
          <span className={`home-count ${count > 0 ? 'home-count-some' : ''}`} data-count={id}>
            {count}
          </span>
        )}
      </header>
      <div className="home-card-body">
        <ErrorBanner error={error} onRetry={onRetry} />
        {count === undefined ? !error && <Spinner /> : count === 0 ? <p className="muted home-empty">{empty}</p> : children}
      </div>
      {count !== undefined && count > 0 && <footer className="home-card-footer">{more}</footer>}
    </section>
  );
}
