import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api, ApiError, setCurrentEntity } from './api';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

export interface SessionEntity {
  id: string;
  name: string;
  role: 'owner' | 'admin' | 'member' | 'viewer';
  permissions: string[];
}

interface SessionState {
  status: 'loading' | 'signed-out' | 'signed-in' | 'error';
  user: SessionUser | null;
  entities: SessionEntity[];
  entity: SessionEntity | null;
  error: string | null;
  /** Signed out on a fresh install (no account yet): the app opens set-up instead of sign-in. */
  setupNeeded: boolean;
  refresh(): Promise<void>;
  selectEntity(id: string): void;
  can(permission: string): boolean;
}

const SessionContext = createContext<SessionState | null>(null);
const ENTITY_KEY = 'bureau.entityId';

export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<SessionState['status']>('loading');
  const [user, setUser] = useState<SessionUser | null>(null);
  const [entities, setEntities] = useState<SessionEntity[]>([]);
  const [entityId, setEntityId] = useState<string | null>(() => localStorage.getItem(ENTITY_KEY));
  const [error, setError] = useState<string | null>(null);
  const [setupNeeded, setSetupNeeded] = useState(false);

  const refresh = useCallback(async () => {
    try {
      const me = await api.get<{ user: SessionUser; entities: SessionEntity[] }>('/api/auth/me');
      setUser(me.user);
      setEntities(me.entities);
      setStatus('signed-in');
      setError(null);
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) {
        // Asked only when signed out; if the answer cannot be had, sign-in is the safe default.
        const setup = await api.get<{ setupNeeded: boolean }>('/api/auth/setup').catch(() => ({ setupNeeded: false }));
        setSetupNeeded(setup.setupNeeded);
        setUser(null);
        setEntities([]);
        setStatus('signed-out');
      } else {
        setError(err instanceof Error ? err.message : String(err));
        setStatus('error');
      }
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  const entity = entities.find((e) => e.id === entityId) ?? entities[0] ?? null;
  // The API client sends the current entity with every request.
  setCurrentEntity(entity?.id ?? null);

  const value = useMemo<SessionState>(
    () => ({
      status,
      user,
      entities,
      entity,
      error,
      setupNeeded,
      refresh,
      selectEntity(id) {
        localStorage.setItem(ENTITY_KEY, id);
        setCurrentEntity(id);
        setEntityId(id);
      },
      can: (permission) => entity?.permissions.includes(permission) ?? false,
    }),
    [status, user, entities, entity, error, setupNeeded, refresh],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionState {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}
