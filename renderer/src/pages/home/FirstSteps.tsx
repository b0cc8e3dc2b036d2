import { Link } from 'react-router';
import { useEntityQuery } from '../../api';
import { useSession } from '../../session';
import { Badge, ErrorBanner, Spinner } from '../../ui/components';
import { loadFirstSteps } from './home-data';

/** First steps for a new business, ticked off from its real data. */
export function FirstSteps() {
  const session = useSession();
  const steps = useEntityQuery(['home', 'first-steps'], () => loadFirstSteps(session));
  const list = steps.data ?? [];
  const done = list.filter((s) => s.done).length;
  if (steps.data && list.length === 0) return null;
  return (
    <section className="card" aria-labelledby="home-first-steps" data-first-steps>
      <header className="card-header">
        <h2 id="home-first-steps" className="card-title">
          First steps
        </h2>
        {steps.data && (
          <span className="muted" data-steps-done={done}>
            {done} of {list.length} done
          </span>
        )}
      </header>
      <div className="card-body">
        <ErrorBanner error={steps.error?.message} onRetry={() => void steps.refetch()} />
        {!steps.data ? (
          !steps.error && <Spinner />
        ) : (
          <ol className="home-steps">
            {list.map((s) => (
              <li key={s.key} className={`home-step ${s.done ? 'home-step-done' : ''}`} data-step={s.key} data-done={s.done}>
                <span className="home-step-check" aria-hidden>
                  {s.done ? '✓' : ''}
                </span>
                <div className="home-step-text">
                  <Link to={s.to}>{s.label}</Link> {s.done ? <Badge tone="green">Done</Badge> : <span className="visually-hidden">(to do)</span>}
                  <div className="muted">{s.description}</div>
                </div>
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
