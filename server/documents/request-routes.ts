import type { Request } from 'express';
import { z } from 'zod';
import { route, type RouteContext, type RouteDef } from '../http/route.js';
import { actorOf } from '../auth/index.js';
import { accessorOf } from '../folders/index.js';
import { listAudit, verifyAuditChain } from './audit.js';
import { addFields, listFields, removeFields, updateField } from './fields.js';
import { listSignatureParties } from './parties.js';
import { remindSignatureRequest } from './reminders.js';
import { createSignatureRequest, getRequestDetail, getVisibleRequest, type RequestMeta } from './requests.js';
import { listSignatureRequests } from './list-requests.js';
import { addSigner, issueSigningLink, removeSigner, updateSigner } from './signers.js';
import { cancelSignatureRequest, completeSignatureRequest, sendSignatureRequest } from './transitions.js';
import { findDocument } from './documents.js';
import { sendPdf } from './send-pdf.js';
import { signedName } from './signed-copy.js';
import { BadRequestError, ConflictError } from '../http/errors.js';
import { entityLinks } from '../kernel/entity-links.js';
import * as s from './request-schemas.js';

const tags = ['Signature requests'];
const view = { entity: 'Q', permission: 'DOCUMENTS.VIEW', scope: 'read:documents' } as const;
const sign = { entity: 'Q', permission: 'DOCUMENTS.SIGN', scope: 'write:documents' } as const;
const subRead = { entity: 'QBH', permission: 'DOCUMENTS.VIEW', scope: 'read:documents' } as const;
const subWrite = { entity: 'QBH', permission: 'DOCUMENTS.SIGN', scope: 'write:documents' } as const;
const base = '/api/documents/signature-requests';

function meta(c: RouteContext<unknown, unknown, unknown>): RequestMeta {
  return { actor: actorOf(c.auth), ip: c.ip, userAgent: c.userAgent };
}

/** Where signing links point: the configured public URL, else the address this request came in on. */
function linkBase(c: { ctx: { config: { publicUrl?: string } }; req: Request }): string {
  return c.ctx.config.publicUrl ?? `${c.req.protocol}://${c.req.get('host')}`;
}

/** Why a signing link is issued: the audit trail tells a link that left the sender's hands from one used in person. */
const signingLinkBody = z.object({
  purpose: z
    .enum(['shared', 'in_person'])
    .default('shared')
    .meta({ description: '`shared`: the link is given to the signer (copied, sent by hand). `in_person`: the signer signs on this device, hosted by the caller.' }),
});

export const signatureRequestRoutes: RouteDef[] = [
  route(
    { method: 'get', path: '/api/documents/signature-parties', summary: 'People who can be added as signers', tags, access: { entity: 'QBH', permission: 'DOCUMENTS.VIEW', scope: 'read:documents' }, query: s.partiesQuery, response: z.array(s.partySchema) },
    ({ ctx, entityId, query }) => listSignatureParties(ctx, entityId, query.search),
  ),
  route(
    {
      method: 'get',
      path: base,
      summary: 'List signature requests',
      description:
        'Newest first (createdAt, then id); members below admin see only requests whose document they can see. Filters: `status`, and `awaitingMe=true` — requests still `sent` where the signed-in person (by e-mail address) is a signer, approver or viewer (not cc) whose turn has come and who has not acted yet, i.e. "waiting for your signature"; an API key acts for no person, so `awaitingMe=true` with one is a 400. Without `limit` and `cursor` the body is every matching request. Paging is opt-in: with `limit` (1–200) and/or `cursor` (default page size 50) the body is one page; when more remain the response has `x-next-cursor` (pass it as `cursor`, with the same filters). `x-total-count` is always the number of matching requests. The body is a plain array either way. A cursor that is not one this list handed out, or a bad `limit`, is a 400.',
      tags,
      access: view,
      query: s.listRequestsQuery,
      response: z.array(s.signatureRequestListItem),
    },
    ({ ctx, entityId, auth, query, res }) => {
      if (query.awaitingMe && auth?.kind !== 'session') throw new BadRequestError('awaitingMe=true needs a signed-in person; an API key acts for no one');
      const page = listSignatureRequests(ctx, entityId, accessorOf(ctx, entityId, auth), query, query.awaitingMe && auth?.kind === 'session' ? auth.email : null);
      res.setHeader('x-total-count', String(page.total));
      if (page.nextCursor) res.setHeader('x-next-cursor', page.nextCursor);
      return page.items;
    },
  ),
  route(
    { method: 'post', path: base, summary: 'Create a signature request (draft)', description: 'The document must belong to the entity (else 400). Signers may be given now or added later while in draft.', tags, access: sign, body: s.createRequestBody, response: s.signatureRequestDetail, status: 201 },
    (c) => createSignatureRequest(c.ctx, c.entityId, accessorOf(c.ctx, c.entityId, c.auth), c.body, { ...meta(c), userId: c.auth?.kind === 'session' ? c.auth.userId : null }),
  ),
  route(
    { method: 'get', path: `${base}/{requestId}`, summary: 'Get a signature request with its signers and audit log', tags, access: view, params: s.requestParams, response: s.signatureRequestDetail },
    ({ ctx, entityId, auth, params }) => {
      getVisibleRequest(ctx, entityId, accessorOf(ctx, entityId, auth), params.requestId);
      return getRequestDetail(ctx, entityId, params.requestId);
    },
  ),
  route(
    { method: 'patch', path: `${base}/{requestId}`, summary: 'Send, cancel or complete', tags, access: sign, params: s.requestParams, body: s.updateRequestBody, response: s.signatureRequestDetail, errors: { 409: 'The action is not allowed in the current status, or its preconditions are not met' } },
    (c) => {
      const accessor = accessorOf(c.ctx, c.entityId, c.auth);
      if (c.body.action === 'send') {
        // Linked to a hosted instance with public pages: the links point there, so signers can sign while this device is offline.
        const publicUrl = entityLinks().linkOf(c.ctx.db, c.entityId)?.publicUrl ?? null;
        return sendSignatureRequest(c.ctx, c.entityId, accessor, c.params.requestId, publicUrl ?? linkBase(c), meta(c), { publicSigning: publicUrl !== null });
      }
      if (c.body.action === 'cancel') return cancelSignatureRequest(c.ctx, c.entityId, accessor, c.params.requestId, meta(c));
      return completeSignatureRequest(c.ctx, c.entityId, accessor, c.params.requestId, meta(c));
    },
  ),
  route(
    {
      method: 'get',
      path: `${base}/{requestId}/document`,
      summary: 'Download the sealed PDF of a completed request',
      description: 'The signed PDF with stamped field values, a certificate-of-completion page and a PKCS#7 signature by the entity\'s sealing certificate. 409 until the request is completed.',
      tags,
      access: subRead,
      params: s.requestParams,
      produces: 'application/pdf',
      errors: { 409: 'Not completed yet' },
    },
    ({ ctx, entityId, auth, params, res }) => {
      const r = getVisibleRequest(ctx, entityId, accessorOf(ctx, entityId, auth), params.requestId);
      if (r.status !== 'completed' || !r.signedSha256) throw new ConflictError('The request is not completed yet', { status: r.status });
      const doc = findDocument(ctx.db, entityId, r.documentId);
      sendPdf(res, ctx.blobs.get(r.signedSha256), signedName(doc.name));
    },
  ),
  route(
    { method: 'get', path: `${base}/{requestId}/signers`, summary: 'List signers', tags, access: subRead, params: s.requestParams, response: z.array(s.signerSchema) },
    ({ ctx, entityId, auth, params }) => {
      getVisibleRequest(ctx, entityId, accessorOf(ctx, entityId, auth), params.requestId);
      return getRequestDetail(ctx, entityId, params.requestId).signers;
    },
  ),
  route(
    { method: 'post', path: `${base}/{requestId}/signers`, summary: 'Add a signer (draft only)', tags, access: subWrite, params: s.requestParams, body: s.signerInput, response: s.signerSchema, status: 201, errors: { 409: 'Not a draft, or the e-mail is already a signer' } },
    (c) => addSigner(c.ctx, c.entityId, accessorOf(c.ctx, c.entityId, c.auth), c.params.requestId, c.body, meta(c)),
  ),
  route(
    { method: 'patch', path: `${base}/{requestId}/signers/{signerId}`, summary: 'Change a signer (draft only)', tags, access: subWrite, params: s.signerParams, body: s.updateSignerBody, response: s.signerSchema, errors: { 409: 'Not a draft' } },
    (c) => updateSigner(c.ctx, c.entityId, accessorOf(c.ctx, c.entityId, c.auth), c.params.requestId, c.params.signerId, c.body, meta(c)),
  ),
  route(
    { method: 'delete', path: `${base}/{requestId}/signers/{signerId}`, summary: 'Remove a signer and their fields (draft only)', tags, access: subWrite, params: s.signerParams, response: z.object({ deleted: z.boolean() }), errors: { 409: 'Not a draft' } },
    (c) => removeSigner(c.ctx, c.entityId, accessorOf(c.ctx, c.entityId, c.auth), c.params.requestId, c.params.signerId, meta(c)),
  ),
  route(
    {
      method: 'post',
      path: `${base}/{requestId}/signers/{signerId}/signing-link`,
      summary: "The signer's personal signing link",
      description:
        'For sharing the link by hand ("Copy link", `purpose: shared`, the default) or signing in person on this device ("Sign in person", `purpose: in_person`, then open /api/sign/{token}?inPerson=true). Only while the request is sent. Recorded in the audit trail as `signing_link_issued` with the purpose.',
      tags,
      access: subWrite,
      params: s.signerParams,
      body: signingLinkBody,
      response: s.signingLinkResponse,
      errors: { 409: 'Not sent, or a cc recipient' },
    },
    (c) => issueSigningLink(c.ctx, c.entityId, accessorOf(c.ctx, c.entityId, c.auth), c.params.requestId, c.params.signerId, linkBase(c), meta(c), c.body.purpose),
  ),
  route(
    { method: 'get', path: `${base}/{requestId}/fields`, summary: 'Placed field overlays', tags, access: subRead, params: s.requestParams, response: z.array(s.fieldSchema) },
    ({ ctx, entityId, auth, params }) => listFields(ctx, entityId, accessorOf(ctx, entityId, auth), params.requestId),
  ),
  route(
    {
      method: 'post',
      path: `${base}/{requestId}/fields`,
      summary: 'Place field overlays (draft only)',
      description: 'Adds the given fields and returns every field of the request. Pages are checked against the stored page count; cc and viewer recipients cannot have fields.',
      tags,
      access: subWrite,
      params: s.requestParams,
      body: s.addFieldsBody,
      response: z.array(s.fieldSchema),
      status: 201,
      errors: { 409: 'Not a draft' },
    },
    (c) => addFields(c.ctx, c.entityId, accessorOf(c.ctx, c.entityId, c.auth), c.params.requestId, c.body, meta(c)),
  ),
  route(
    {
      method: 'patch',
      path: `${base}/{requestId}/fields/{fieldId}`,
      summary: 'Move, resize, label or re-assign a field, or make it optional (draft only)',
      tags,
      access: subWrite,
      params: s.fieldParams,
      body: s.updateFieldBody,
      response: s.fieldSchema,
      errors: { 409: 'Not a draft' },
    },
    (c) => updateField(c.ctx, c.entityId, accessorOf(c.ctx, c.entityId, c.auth), c.params.requestId, c.params.fieldId, c.body, meta(c)),
  ),
  route(
    { method: 'delete', path: `${base}/{requestId}/fields`, summary: 'Remove field overlays (draft only)', description: 'Returns the remaining fields.', tags, access: subWrite, params: s.requestParams, body: s.removeFieldsBody, response: z.array(s.fieldSchema), errors: { 409: 'Not a draft' } },
    (c) => removeFields(c.ctx, c.entityId, accessorOf(c.ctx, c.entityId, c.auth), c.params.requestId, c.body, meta(c)),
  ),
  route(
    {
      method: 'post',
      path: `${base}/{requestId}/remind`,
      summary: 'E-mail a reminder to everyone who still has to act',
      description: 'Respects the signing order: only signers whose turn it is. Recorded in the audit trail. Only for sent requests (409 otherwise). Automatic reminders also run on a schedule (see autoRemind).',
      tags,
      access: subWrite,
      params: s.requestParams,
      response: s.remindResponse,
      errors: { 409: 'The request is not sent' },
    },
    (c) => remindSignatureRequest(c.ctx, c.entityId, accessorOf(c.ctx, c.entityId, c.auth), c.params.requestId, meta(c)),
  ),
  route(
    { method: 'get', path: `${base}/{requestId}/audit-trail`, summary: 'The hash-chained audit trail, oldest first', tags, access: subRead, params: s.requestParams, response: z.array(s.auditEntrySchema) },
    ({ ctx, entityId, auth, params }) => {
      getVisibleRequest(ctx, entityId, accessorOf(ctx, entityId, auth), params.requestId);
      return listAudit(ctx.db, entityId, params.requestId);
    },
  ),
  route(
    { method: 'get', path: `${base}/{requestId}/audit-trail/verify`, summary: 'Recompute the audit hash chain', description: '`valid: false` with the first broken entry when any entry was altered, removed or reordered.', tags, access: subRead, params: s.requestParams, response: s.verifyResponse },
    ({ ctx, entityId, auth, params }) => {
      getVisibleRequest(ctx, entityId, accessorOf(ctx, entityId, auth), params.requestId);
      return verifyAuditChain(ctx.db, entityId, params.requestId);
    },
  ),
];
