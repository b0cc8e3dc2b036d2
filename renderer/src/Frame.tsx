import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { matchPath, Navigate, NavLink, Route, Routes, useLocation } from 'react-router';
import { useSession } from './session';
import { areaRoutes, type AreaRoute } from './routes';
import { useFocusTrap } from './ui/focus';
import { documentTitle, PageTitleContext } from './ui/title';
import { TopBar } from './TopBar';

/** Below this width the sidebar is a drawer opened from the top bar's menu button (as in styles.css). */
const WIDE = '(min-width: 900px)';

const navAreas = areaRoutes.filter((r) => r.nav).sort((a, b) => a.nav!.order - b.nav!.order);

/** The area the location is in, for the document title. */
function areaOf(pathname: string): AreaRoute | undefined {
  return areaRoutes.find((r) => !r.public && matchPath({ path: r.path.startsWith('/') ? r.path : `/${r.path}`, end: true }, pathname));
}

/** The app frame of a signed-in person: the sidebar (a drawer on narrow screens), the top bar and the current area. */
export function Frame() {
  const { entity } = useSession();
  const location = useLocation();
  const home = navAreas[0]?.nav?.to ?? '/settings';
  const drawer = useDrawer();

  // The document title: "<page> · <area> · <entity> · Bureau", the area taken from the route.
  const [pageTitle, setPageTitle] = useState<string | null>(null);
  const title = documentTitle(pageTitle, areaOf(location.pathname)?.title, entity?.name);
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
      <div className={`shell ${drawer.open ? 'shell-drawer-open' : ''}`}>
        <a className="skip-link" href="#main-content" onClick={skipToMain}>
          Skip to main content
        </a>
        <Sidebar ref={drawer.sidebar} open={drawer.open} onClose={drawer.close} />
        {drawer.open && <div className="drawer-backdrop" onClick={drawer.close} aria-hidden />}
        <div className="main" inert={drawer.open}>
          <TopBar menu={{ ref: drawer.menuButton, open: drawer.open, onOpen: drawer.openHere }} />
          {/* Keyed by the entity: switching businesses starts every page afresh. */}
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

/** The drawer is open for the location it was opened at: any navigation closes it. */
function useDrawer() {
  const location = useLocation();
  const [drawerAt, setDrawerAt] = useState<string | null>(null);
  const open = drawerAt !== null && drawerAt === location.key;
  const closedByNavigation = drawerAt !== null && drawerAt !== location.key;
  const sidebar = useRef<HTMLDivElement>(null);
  const menuButton = useRef<HTMLButtonElement>(null);
  const close = useCallback(() => setDrawerAt(null), []);
  useFocusTrap(sidebar, open, {
    onEscape: close,
    // After following a link the new page's content gets focus; otherwise the menu button.
    returnTo: () => (closedByNavigation ? document.getElementById('main-content') : menuButton.current),
  });
  useEffect(() => {
    const wide = window.matchMedia(WIDE);
    const onChange = () => wide.matches && close();
    wide.addEventListener('change', onChange);
    return () => wide.removeEventListener('change', onChange);
  }, [close]);
  return { open, close, openHere: () => setDrawerAt(location.key), sidebar, menuButton };
}

/** The areas, and who is signed in to which business. On a narrow screen, open, it is a modal dialog (the page behind is inert). */
function Sidebar({ ref, open, onClose }: { ref: RefObject<HTMLDivElement | null>; open: boolean; onClose: () => void }) {
  const { user, entity } = useSession();
  return (
    <div id="sidebar" className={`sidebar ${open ? 'sidebar-open' : ''}`} ref={ref} {...(open ? { role: 'dialog', 'aria-modal': true, 'aria-label': 'Menu' } : {})}>
      <div className="brand">
        <span className="brand-mark">B</span> Bureau
        <button type="button" className="icon-btn drawer-close" aria-label="Close menu" onClick={onClose}>
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
  );
}
