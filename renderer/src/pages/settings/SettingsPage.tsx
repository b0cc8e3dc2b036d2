import { Navigate, NavLink, Route, Routes } from 'react-router';
import { useSession } from '../../session';
import { PageHeader } from '../../ui/components';
import { settingsSections } from './sections';

export function SettingsPage() {
  const session = useSession();
  const sections = settingsSections.filter((s) => !s.permission || session.can(s.permission)).sort((a, b) => a.order - b.order);
  return (
    <div>
      <PageHeader title="Settings" subtitle="Access for people and integrations, and sync with your other devices." />
      <nav className="tabs" aria-label="Settings">
        {sections.map((s) => (
          <NavLink key={s.path} to={`/settings/${s.path}`} className={({ isActive }) => `tab ${isActive ? 'tab-active' : ''}`}>
            {s.label}
          </NavLink>
        ))}
      </nav>
      <Routes>
        {sections.map((s) => (
          <Route key={s.path} path={`${s.path}/*`} element={s.element} />
        ))}
        <Route path="*" element={<Navigate to={`/settings/${sections[0].path}`} replace />} />
      </Routes>
    </div>
  );
}
