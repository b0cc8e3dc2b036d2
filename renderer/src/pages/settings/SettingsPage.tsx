import { Navigate, NavLink, Route, Routes } from 'react-router';
import { PageHeader } from '../../ui/components';
import { settingsSections } from './sections';

export function SettingsPage() {
  const sections = [...settingsSections].sort((a, b) => a.order - b.order);
  return (
    <div>
      <PageHeader title="Settings" subtitle="Access for people and integrations." />
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
