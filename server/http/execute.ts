// One way to run a declared endpoint, for the desktop's `route()` and the hosted instance's
// `endpoint()` alike: the app's own access check, then the input validated by the spec's zod
// schemas, then the handler, then the success status. What differs per app is only who may call
// (sessions, API keys and permissions on the desktop; device tokens on the hosted instance) and
// how the answer is written; the errors thrown here are the typed ones of errors.ts, which each
// app's error handler maps to `{ error }` through `errorResponse`.
import type { ZodType } from 'zod';
import type { RouteDoc } from './route.js';

/** An endpoint's declaration in any app: its documentation (OpenAPI) and who may call it, in the app's terms. */
export interface AppSpec<A, P extends ZodType = ZodType, Q extends ZodType = ZodType, B extends ZodType = ZodType, R extends ZodType = ZodType> extends RouteDoc<P, Q, B, R> {
  access: A;
}

/** A request's input as the HTTP layer parsed it, before validation. */
export interface RawInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

export interface Input {
  params: unknown;
  query: unknown;
  body: unknown;
}

/** A success status and result (undefined: no body), or null when the handler answered itself. */
export type Answer = { status: number; result: unknown } | null;

/** Validates the input against the spec's schemas (a ZodError, mapped to 400, when it does not match). */
export function parseInput(spec: RouteDoc, raw: RawInput): Input {
  return {
    params: spec.params ? spec.params.parse(raw.params) : undefined,
    query: spec.query ? spec.query.parse(raw.query) : undefined,
    body: spec.body ? spec.body.parse(raw.body ?? {}) : undefined,
  };
}

export interface Execution<G> {
  /** The app's access check: what the caller may act as (throws 401/403/404/429 otherwise). */
  authorize(): G | Promise<G>;
  /** Calls the handler with the grant and the validated input. */
  run(grant: G, input: Input): unknown;
  /** The handler wrote the response itself (a file, a stream). */
  answered(): boolean;
  /** The success status when the handler returned a body (the spec's, or one the handler chose). */
  status(): number;
}

/**
 * Runs one endpoint. Stays synchronous when the access check and the handler are (the desktop's
 * direct dispatcher then answers in the same turn: measured faster than after a microtask).
 */
export function execute<G>(spec: RouteDoc, raw: RawInput, x: Execution<G>): Answer | Promise<Answer> {
  const finish = (result: unknown): Answer => {
    if (x.answered()) return null;
    return result === undefined ? { status: spec.status ?? 204, result } : { status: x.status(), result };
  };
  const proceed = (grant: G): Answer | Promise<Answer> => {
    const result = x.run(grant, parseInput(spec, raw));
    return result instanceof Promise ? result.then(finish) : finish(result);
  };
  const grant = x.authorize();
  return grant instanceof Promise ? grant.then(proceed) : proceed(grant);
}
