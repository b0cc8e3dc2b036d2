import { z } from 'zod';
import { defineEvents, type PayloadsOf } from '../events/catalogue.js';
import { requestStatusSchema, signerRoleSchema } from './request-schemas.js';

const request = { requestId: z.uuid(), title: z.string() };
const signer = { signerId: z.uuid(), name: z.string(), email: z.string() };

/** Documents and signing: uploads, and each step of a signature request. */
export const documentEvents = defineEvents({
  'document.uploaded': {
    description: 'A PDF was uploaded. data: { documentId, name, sha256, size, pageCount, folderId }',
    data: z.strictObject({ documentId: z.uuid(), name: z.string(), sha256: z.string(), size: z.number().int(), pageCount: z.number().int(), folderId: z.uuid().nullable() }),
  },
  'signature_request.sent': {
    description: 'A signature request was sent to its signers. data: { requestId, title, documentId, signers: [{ id, email, role }] }',
    data: z.strictObject({ ...request, documentId: z.uuid(), signers: z.array(z.strictObject({ id: z.uuid(), email: z.string(), role: signerRoleSchema })) }),
  },
  'signature_request.completed': {
    description: 'Everyone signed; the sealed PDF exists. data: { requestId, title, documentId, signedSha256, completedAt }',
    data: z.strictObject({ ...request, documentId: z.uuid(), signedSha256: z.string(), completedAt: z.string() }),
  },
  'signature_request.cancelled': {
    description: 'The sender cancelled a signature request. data: { requestId, title, from }',
    data: z.strictObject({ ...request, from: requestStatusSchema.meta({ description: 'The status it had' }) }),
  },
  'signature_request.declined': {
    description: 'A signer declined; the request is closed. data: { requestId, title, signerId, name, email, reason }',
    data: z.strictObject({ ...request, ...signer, reason: z.string() }),
  },
  'signature_request.expired': {
    description: 'The due date passed before everyone signed. data: { requestId, title, dueDate }',
    data: z.strictObject({ ...request, dueDate: z.string().nullable() }),
  },
  'signer.signed': {
    description: 'One signer signed (or approved / acknowledged). data: { requestId, signerId, name, email, role, signedAt }',
    data: z.strictObject({ requestId: z.uuid(), ...signer, role: signerRoleSchema, signedAt: z.string().nullable() }),
  },
});

declare module '../events/catalogue.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- adds this module's types to the catalogue's map
  interface EventPayloads extends PayloadsOf<typeof documentEvents> {}
}
