import { useEffect, type ReactNode } from 'react';
import { documentTitle } from '../../ui/title';

export function AuthCard({ title, lead, children, footer }: { title: string; lead: string; children: ReactNode; footer?: ReactNode }) {
  useEffect(() => {
    document.title = documentTitle(title);
  }, [title]);
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="brand">
          <span className="brand-mark" style={{ color: '#fff' }}>
            B
          </span>{' '}
          Bureau
        </div>
        <h1>{title}</h1>
        <p className="lead">{lead}</p>
        {children}
        {footer && <div className="auth-switch">{footer}</div>}
      </div>
    </main>
  );
}
