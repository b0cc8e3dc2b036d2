import { useCallback, useEffect, useRef, useState } from 'react';
import { matchPath, Navigate, NavLink, Route, Routes, useLocation } from 'react-router';
import { SessionProvider, useSession } from './session';
import { areaRoutes, type AreaRoute } from './routes';
import { LoginPage } from './pages/auth/LoginPage';
import { SignupPage } from './pages/auth/SignupPage';
import { AcceptInvitePage } from './pages/auth/AcceptInvitePage';
import { AcceptInvitationPage, JoinDevicePage } from './pages/auth/JoinDevicePage';
import { RestoreBackupPage } from './pages/auth/RestoreBackupPage';
import { ErrorBanner, Spinner } from './ui/components';
import { useFocusTrap } from './ui/focus';
import { documentTitle, PageTitleContext } from './ui/title';
import { TopBar } from './TopBar';

/** Below this width the sidebar is a drawer opened from the top bar's menu button (as in styles.css). */
const WIDE = '(min-width: 900px)';

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

const navAreas = areaRoutes.filter((r) => r.nav).sort((a, b) => a.nav!.order - b.nav!.order);

/** The area the location is in, for the document title. */
function areaOf(pathname: string): AreaRoute | undefined {
  return areaRoutes.find((r) => !r.public && matchPath({ path: r.path.startsWith('/') ? r.path : `/${r.path}`, end: true }, pathname));
}

function Frame() {
  const { user, entity } = useSession();
  const location = useLocation();
  const home = navAreas[0]?.nav?.to ?? '/settings';

  // The drawer is open for the location it was opened at: any navigation closes it.
  const [drawerAt, setDrawerAt] = useState<string | null>(null);
  const drawerOpen = drawerAt !== null && drawerAt === location.key;
  const closedByNavigation = drawerAt !== null && drawerAt !== location.key;
  const sidebar = useRef<HTMLDivElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const closeDrawer = useCallback(() => setDrawerAt(null), []);
  useFocusTrap(sidebar, drawerOpen, {
    onEscape: closeDrawer,
    // After following a link the new page's content gets focus; otherwise the menu button.
    returnTo: () => (closedByNavigation ? document.getElementById('main-content') : menuButton.current),
  });
  useEffect(() => {
    const wide = window.matchMedia(WIDE);
    const onChange = () => wide.matches && closeDrawer();
    wide.addEventListener('change', onChange);
    return () => wide.removeEventListener('change', onChange);
  }, [closeDrawer]);

  // The document title: "<page> · <area> · <entity> · Bureau", the area taken from the route.
  const [pageTitle, setPageTitle] = useState<string | null>(null);
  const area = areaOf(location.pathname);
  const title = documentTitle(pageTitle, area?.title, entity?.name);
  useEffect(() => {
    document.title = title;
  }, [title]);

  const skipToMain = (e: React.MouseEvent) => {
    e.preventDefault();
    const main = document.getElementById('main-content');
    main?.focus();
    main?.scrollIntoView();
  };

  return (
    <PageTitleContext.Provider value={setPageTitle}>
      <div className={`shell ${drawerOpen ? 'shell-drawer-open' : ''}`}>
        <a className="skip-link" href="#main-content" onClick={skipToMain}>
          Skip to main content
        </a>
        {/* On a narrow screen, open, it is a modal dialog (the page behind is inert). */}
        <div id="sidebar" className={`sidebar ${drawerOpen ? 'sidebar-open' : ''}`} ref={sidebar} {...(drawerOpen ? { role: 'dialog', 'aria-modal': true, 'aria-label': 'Menu' } : {})}>
          <div className="brand">
            <span className="brand-mark">B</span> Bureau
            <button type="button" className="icon-btn drawer-close" aria-label="Close menu" onClick={closeDrawer}>
              ×
            </button>
          </div>
          <nav className="nav" aria-label="Main">
            {navAreas.map((r) => (
              <NavLink key={r.path} to={r.nav!.to} end={r.nav!.end}>
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
            {entity && (
              <div className="muted">
                {entity.role} · {entity.name}
              </div>
            )}
          </div>
        </div>
        {drawerOpen && <div className="drawer-backdrop" onClick={closeDrawer} aria-hidden />}
        <div className="main" inert={drawerOpen}>
          <TopBar menu={{ ref: menuButton, open: drawerOpen, onOpen: () => setDrawerAt(location.key) }} />
          <main id="main-content" className="content" tabIndex={-1} key={entity?.id}>
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
    </PageTitleContext.Provider>
  );
}
