import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiError, client, queryClient, setCurrentEntity, unwrap, type Schema } from './api';

export type SessionUser = Schema<'User'>;
export type SessionEntity = Schema<'EntityWithRole'>;

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

type Loaded = { signedIn: true; user: SessionUser; entities: SessionEntity[] } | { signedIn: false; setupNeeded: boolean };

/** Who is signed in and to which businesses; signed out, whether this is a fresh install. */
async function loadSession(): Promise<Loaded> {
  try {
    const me = await unwrap(client.GET('/api/auth/me'));
    if (!('user' in me)) throw new ApiError(401, 'Sign in to use Bureau');
    return { signedIn: true, user: me.user, entities: me.entities };
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401)) throw err;
    // Asked only when signed out; if the answer cannot be had, sign-in is the safe default.
    const setup = await unwrap(client.GET('/api/auth/setup')).catch(() => ({ setupNeeded: false }));
    return { signedIn: false, setupNeeded: setup.setupNeeded };
  }
}

const SessionContext = createContext<SessionState | null>(null);
const ENTITY_KEY = 'bureau.entityId';
const NO_ENTITIES: SessionEntity[] = [];

export function SessionProvider({ children }: { children: ReactNode }) {
  const session = useQuery({ queryKey: ['session'], queryFn: loadSession });
  const [entityId, setEntityId] = useState<string | null>(() => localStorage.getItem(ENTITY_KEY));
  const { refetch } = session;
  const refresh = useCallback(async () => {
    await refetch();
  }, [refetch]);

  const loaded = session.data;
  const status: SessionState['status'] = session.isError ? 'error' : !loaded ? 'loading' : loaded.signedIn ? 'signed-in' : 'signed-out';
  const user = loaded?.signedIn ? loaded.user : null;
  const entities = loaded?.signedIn ? loaded.entities : NO_ENTITIES;
  const entity = entities.find((e) => e.id === entityId) ?? entities[0] ?? null;
  // The API client sends the current entity with every request.
  setCurrentEntity(entity?.id ?? null);

  // Signed out, nobody's business data stays cached for whoever signs in next.
  useEffect(() => {
    if (status === 'signed-out') queryClient.removeQueries({ queryKey: ['entity'] });
  }, [status]);

  const error = session.error ? session.error.message : null;
  const setupNeeded = loaded?.signedIn === false && loaded.setupNeeded;
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
      can: (permission) => (entity?.permissions as string[] | undefined)?.includes(permission) ?? false,
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
