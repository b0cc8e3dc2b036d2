import { Navigate, NavLink, Route, Routes } from 'react-router';
import { SessionProvider, useSession } from './session';
import { areaRoutes } from './routes';
import { LoginPage } from './pages/auth/LoginPage';
import { SignupPage } from './pages/auth/SignupPage';
import { AcceptInvitePage } from './pages/auth/AcceptInvitePage';
import { JoinDevicePage } from './pages/auth/JoinDevicePage';
import { ErrorBanner, Spinner } from './ui/components';
import { TopBar } from './TopBar';

export function App() {
  return (
    <Routes>
      {areaRoutes
        .filter((r) => r.public)
        .map((r) => (
          <Route key={r.path} path={r.path} element={r.element} />
        ))}
      <Route
        path="*"
        element={
          <SessionProvider>
            <Gate />
          </SessionProvider>
        }
      />
    </Routes>
  );
}

/** Signed out: onboarding and sign-in. Signed in: the app frame. */
function Gate() {
  const session = useSession();
  if (session.status === 'loading') return <Spinner label="Starting Bureau…" />;
  if (session.status === 'error')
    return (
      <div className="auth-page">
        <ErrorBanner error={session.error} onRetry={() => void session.refresh()} />
      </div>
    );
  if (session.status === 'signed-out')
    return (
      <Routes>
        <Route path="/signup" element={<SignupPage />} />
        <Route path="/invite" element={<AcceptInvitePage />} />
        <Route path="/join" element={<JoinDevicePage />} />
        <Route path="*" element={<LoginPage />} />
      </Routes>
    );
  return <Frame />;
}

function Frame() {
  const { user, entity } = useSession();
  const nav = areaRoutes.filter((r) => r.nav).sort((a, b) => a.nav!.order - b.nav!.order);
  const home = nav[0]?.nav?.to ?? '/settings';
  return (
    <div className="shell">
      <aside className="sidebar">
        <div className="brand">
          <span className="brand-mark">B</span> Bureau
        </div>
        <nav className="nav" aria-label="Main">
          {nav.map((r) => (
            <NavLink key={r.path} to={r.nav!.to}>
              <span className="nav-icon" aria-hidden>
                {r.nav!.icon}
              </span>
              {r.nav!.label}
            </NavLink>
          ))}
        </nav>
        <div className="sidebar-footer">
          <div className="who">{user?.name}</div>
          <div className="muted">{user?.email}</div>
          {entity && <div className="muted">{entity.role} · {entity.name}</div>}
        </div>
      </aside>
      <div className="main">
        <TopBar />
        <main className="content" key={entity?.id}>
          <Routes>
            {areaRoutes
              .filter((r) => !r.public)
              .map((r) => (
              <Route key={r.path} path={r.path} element={r.element} />
            ))}
            <Route path="*" element={<Navigate to={home} replace />} />
          </Routes>
        </main>
      </div>
    </div>
  );
}
