// The hosted instance's OpenAPI document, from its endpoints' specs through the desktop's generator:
// who may call each endpoint, its rate limit and every error status it can answer.
import { openApiDocument, type DocumentedOperation } from '../http/openapi.js';
import type { RateLimitRule } from '../http/rate-limit.js';
import type { EndpointSpec, HostedEndpoint } from './endpoint.js';

const BAD_INPUT = 'Bad input: `{ error, details? }` (zod issues in details), or a body that is not valid JSON';

/** `1200 per minute`, `20 per 15 minutes`. */
function per(rule: RateLimitRule): string {
  const minutes = rule.windowMs / 60_000;
  return `${rule.limit} per ${minutes === 1 ? 'minute' : Number.isInteger(minutes) ? `${minutes} minutes` : `${rule.windowMs / 1000} seconds`}`;
}

/** How access is decided, as the description's last paragraph (parsed back by the isolation sweep). */
function accessNote(spec: EndpointSpec): string {
  const parts: string[] = [];
  if (spec.access === 'device') {
    parts.push(spec.roles ? `Device roles: ${spec.roles.only.map((r) => `\`${r}\``).join(', ')}.` : 'Device roles: any member.');
  } else parts.push('Public: no credentials.');
  if (spec.limit) parts.push(`Rate limit: ${per(spec.limit.rule)} per ${spec.access === 'device' ? 'device' : 'client IP'} (429 with Retry-After).`);
  if (spec.badTokens) parts.push(`Requests with an invalid or revoked device token: ${per(spec.badTokens.rule)} per client IP, then 429 with Retry-After.`);
  return `\n\n${parts.join(' ')}`;
}

function errorsOf(spec: EndpointSpec): Record<number, string> {
  const errors: Record<number, string> = {};
  if (spec.params || spec.query || spec.body || spec.consumes) errors[400] = BAD_INPUT;
  if (spec.access === 'device') {
    errors[401] = 'No device token, or an invalid or revoked one';
    errors[403] = `The device's account is no longer a member of the entity${spec.roles ? `, or its role may not do this (${spec.roles.refusal})` : ''}`;
  }
  if (spec.maxBodyBytes) errors[413] = `Request body over ${spec.maxBodyBytes} bytes`;
  if (spec.limit || spec.badTokens) errors[429] = 'Rate limited: `Retry-After` says in how many seconds to try again';
  return { ...errors, ...spec.errors };
}

export function hostedOpenApi(endpoints: HostedEndpoint[], version: string) {
  const operations = endpoints.map(({ spec }): DocumentedOperation => ({
    doc: spec,
    security: spec.access === 'device' ? [{ deviceToken: [] }] : [],
    accessNote: accessNote(spec),
    errors: errorsOf(spec),
  }));
  return openApiDocument(
    {
      title: 'Bureau hosted instance',
      version,
      description:
        'The hosted instance devices sync to (`/sync/v1`), and the public pages it serves for people outside the business: signing links (`/api/sign/{token}`) and the anonymous relay (`/api/relay`). ' +
        'Every failure is `{ "error": string, "details"?: unknown }`. Every answer carries `x-server-time` (devices measure their clock offset from it) and `x-min-schema-version` (the oldest device schema version accepted). ' +
        'Device endpoints take `Authorization: Bearer dt_…`, a device token issued by `POST /sync/v1/link` or `POST /sync/v1/join`: one per device and entity, kept only as a hash, revocable and rotatable.',
      securitySchemes: {
        deviceToken: { type: 'http', scheme: 'bearer', description: 'Device token `dt_…` of one device of one member of one entity' },
      },
    },
    operations,
  );
}
