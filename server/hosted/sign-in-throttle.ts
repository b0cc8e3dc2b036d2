// Failed sign-ins on the hosted instance (link, join), counted per client IP and per account.
// Both places are reserved before the password is checked, as the desktop's sign-in does: a burst
// of concurrent guesses holds places as it goes, so no more than the limit are ever checked. A
// place counts when the credentials were wrong (401) or only asked for a confirmation (202: the
// same answer for a known address with a wrong password as for an unknown one, so both count);
// otherwise it is given back. Unlocking is by time only: no lockout lasts past the window.
import type { Clock } from '../context.js';
import { RateLimitedError, UnauthorizedError } from '../http/errors.js';
import { createRateLimiter, type RateLimiter, type Reservation } from '../http/rate-limit.js';
import { isConfirmationSent } from './accounts.js';
import type { HostedLimits } from './limits.js';

/** `wrongPassword`: which failures count besides 401 (a device-authenticated password check answers 403). */
export type SignInThrottle = <T>(who: { ip: string; email: string }, use: () => Promise<T>, wrongPassword?: (err: unknown) => boolean) => Promise<T>;

export function createSignInThrottle(clock: Clock, limits: Pick<HostedLimits, 'failedSignIn' | 'failedSignInAccount'>): SignInThrottle {
  const byIp = createRateLimiter(clock, limits.failedSignIn);
  const byAccount = createRateLimiter(clock, limits.failedSignInAccount);
  return async (who, use, wrongPassword) => {
    const ipPlace = reserveOrSayHowLong(byIp, who.ip, limits.failedSignIn.message);
    let accountPlace: Reservation;
    try {
      accountPlace = reserveOrSayHowLong(byAccount, who.email, limits.failedSignInAccount.message);
    } catch (err) {
      ipPlace.settle(false);
      throw err;
    }
    let counted = false;
    try {
      const result = await use();
      counted = isConfirmationSent(result);
      return result;
    } catch (err) {
      counted = err instanceof UnauthorizedError || (wrongPassword?.(err) ?? false);
      throw err;
    } finally {
      ipPlace.settle(counted);
      accountPlace.settle(counted);
    }
  };
}

/** The real owner of a locked account learns how long it stays locked. */
function reserveOrSayHowLong(limiter: RateLimiter, key: string, message: string): Reservation {
  try {
    return limiter.reserve(key);
  } catch (err) {
    if (!(err instanceof RateLimitedError)) throw err;
    const seconds = Number(err.headers['Retry-After']);
    const minutes = Math.max(1, Math.ceil(seconds / 60));
    throw new RateLimitedError(seconds, `${message}; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`);
  }
}
