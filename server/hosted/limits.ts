// Rate limits of the hosted routes. Device routes count per device (its token), the public
// sign-in routes per client IP. Sized so a device catching up at full speed stays well inside
// them (500-change pushes and 1,000-change pulls, 20 a second) while a runaway or hostile client
// is stopped; over a limit answers 429 with Retry-After, which the device's backoff honours.
import type { RateLimitRule } from '../http/rate-limit.js';
import { UNKNOWN_LINK_RATE } from '../documents/index.js';

export interface HostedLimits {
  push: RateLimitRule;
  pull: RateLimitRule;
  snapshot: RateLimitRule;
  blobs: RateLimitRule;
  /** Codes, invitations, device lists, revoke, rotate: people's actions, not a sync loop's. */
  manage: RateLimitRule;
  /** Every link and join attempt per IP (wrong passwords have their own, stricter count). */
  signIn: RateLimitRule;
  /** Failed sign-ins (link, join) per IP; the 429 adds how long to wait to `message`. */
  failedSignIn: RateLimitRule;
  /**
   * Failed sign-ins per account (the normalised e-mail, known or not), whatever the address: many
   * addresses guessing at one account are stopped too. Unlocks by time only.
   */
  failedSignInAccount: RateLimitRule;
  /** Requests with an unknown or revoked device token per IP (guessing tokens). */
  badToken: RateLimitRule;
  /** Unknown signing links per IP (public signing pages), as on the desktop: 20 in 15 minutes. */
  unknownSigningLink: RateLimitRule;
  /** Every signing-page request per IP (opening, signing, downloading). */
  signingPage: RateLimitRule;
  /** POST /api/relay/transfer per IP (spec section 8: 20 a minute), valid or not. */
  relay: RateLimitRule;
  /** Relay quotes and job progress per IP. */
  relayStatus: RateLimitRule;
  /** Mail a device hands over (`POST /sync/v1/mail`), per device. */
  mail: RateLimitRule;
  /** Mail handed over per entity in a rolling window, all its devices together (counted in the database). */
  mailQuota: RateLimitRule;
}

const perMinute = (limit: number, what: string): RateLimitRule => ({ limit, windowMs: 60_000, message: `Too many ${what} from this device; try again shortly` });

export const DEFAULT_LIMITS: HostedLimits = {
  push: perMinute(1200, 'pushes'),
  pull: perMinute(1200, 'pulls'),
  snapshot: { limit: 10, windowMs: 10 * 60_000, message: 'Too many snapshots from this device; try again later' },
  blobs: perMinute(600, 'file transfers'),
  manage: perMinute(60, 'requests'),
  signIn: { limit: 120, windowMs: 15 * 60_000, message: 'Too many link or join attempts from this address; try again later' },
  failedSignIn: { limit: 20, windowMs: 15 * 60_000, message: 'Too many failed sign-in attempts from this address' },
  failedSignInAccount: { limit: 5, windowMs: 15 * 60_000, message: 'Too many failed sign-in attempts for this account' },
  badToken: { limit: 100, windowMs: 15 * 60_000, message: 'Too many requests with an invalid device token from this address; try again later' },
  unknownSigningLink: UNKNOWN_LINK_RATE,
  signingPage: { limit: 300, windowMs: 60_000, message: 'Too many signing-page requests from this address; try again shortly' },
  relay: { limit: 20, windowMs: 60_000, message: 'Too many relay requests; try again later' },
  relayStatus: { limit: 240, windowMs: 60_000, message: 'Too many relay quote or job requests from this address; try again shortly' },
  mail: perMinute(60, 'e-mails'),
  mailQuota: { limit: 2000, windowMs: 24 * 60 * 60_000, message: "This business has sent as many e-mails through this instance as it may in a day; the rest wait" },
};
