import { Navigate, Route, Routes } from 'react-router';
import { SessionProvider, useSession } from './session';
import { areaRoutes } from './routes';
import { LoginPage } from './pages/auth/LoginPage';
import { SignupPage } from './pages/auth/SignupPage';
import { AcceptInvitePage } from './pages/auth/AcceptInvitePage';
import { AcceptInvitationPage, JoinDevicePage } from './pages/auth/JoinDevicePage';
import { RestoreBackupPage } from './pages/auth/RestoreBackupPage';
import { ErrorBanner, Spinner } from './ui/components';
import { Frame } from './Frame';

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

/** Signed out: set-up on a fresh install, else sign-in (and onboarding links). Signed in: the app frame. */
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
        <Route path="/accept-invitation" element={<AcceptInvitationPage />} />
        <Route path="/restore" element={<RestoreBackupPage />} />
        <Route path="*" element={session.setupNeeded ? <Navigate to="/signup" replace /> : <LoginPage />} />
      </Routes>
    );
  return <Frame />;
}
