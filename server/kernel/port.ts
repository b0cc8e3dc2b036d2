// A port: something a lower layer needs at run time from a higher one it may not import (the
// layer rule in docs/ARCHITECTURE.md). The app registers the implementation in server/modules.ts
// as the modules load; asking before that is a wiring mistake, so it throws instead of doing nothing.

export interface Port<T> {
  register(implementation: T): void;
  /** The registered implementation; throws when none was registered. */
  get(): T;
}

/** `what` names the port and who registers it, for the error a missing registration throws. */
export function definePort<T>(what: string): Port<T> {
  let registered: T | null = null;
  return {
    register: (implementation) => void (registered = implementation),
    get: () => {
      if (registered === null) throw new Error(`No ${what} registered`);
      return registered;
    },
  };
}
