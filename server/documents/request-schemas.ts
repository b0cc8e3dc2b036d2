import { z } from 'zod';
import { FIELD_TYPES, REQUEST_STATUSES, SIGNER_ROLES } from './tables.js';
import { safeText } from '../http/safe-text.js';
import { optInPaging } from '../http/cursor.js';

export const AUTO_REMIND = { firstAfterDays: 2, everyDays: 3, max: 3 } as const;

const emailSchema = z.string().trim().toLowerCase().pipe(z.email({ message: 'A valid e-mail address is required' }));
const futureDate = z.iso.datetime({ offset: true }).meta({ description: 'ISO 8601 date-time. When it passes while the request is `sent`, the request becomes `expired`.' });

export const requestStatusSchema = z.enum(REQUEST_STATUSES).meta({
  id: 'SignatureRequestStatus',
  description:
    'draft → sent (PATCH send) → completed (last signer signs, or PATCH complete once everyone has signed). draft|sent → cancelled (PATCH cancel). sent → declined (a signer declines). sent → expired (dueDate passes). completed, cancelled, declined and expired are final; any other move is 409.',
});

export const signerRoleSchema = z.enum(SIGNER_ROLES).meta({
  description: '`signer` fills fields and signs; `approver` approves (may have fields); `viewer` must open and acknowledge; `cc` only receives the completed document.',
});

export const signerInput = z.object({
  name: z.string().trim().min(1, 'name is required').max(120),
  email: emailSchema,
  role: signerRoleSchema.default('signer'),
  order: z.number().int().min(1).max(100).optional().meta({ description: 'Position in a sequential signing order (1 = first; equal numbers sign in parallel). Defaults to after the last signer.' }),
});

export const signerSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    role: signerRoleSchema,
    order: z.number().int(),
    status: z.enum(['pending', 'signed', 'declined']).meta({ description: '`signed` also means approved (approver) or acknowledged (viewer)' }),
    sentAt: z.string().nullable().meta({ description: 'When the signing invitation was queued (the signer\'s turn came)' }),
    viewedAt: z.string().nullable(),
    signedAt: z.string().nullable(),
    declinedAt: z.string().nullable(),
    declineReason: z.string().nullable(),
    lastNotifiedAt: z.string().nullable(),
    remindersSent: z.number().int(),
    fieldCount: z.number().int(),
  })
  .meta({ id: 'Signer' });

export const auditEntrySchema = z
  .object({
    id: z.uuid(),
    seq: z.number().int(),
    type: z.string().meta({
      description:
        'created, signer_added, signer_updated, signer_removed, fields_added, field_updated, fields_removed, sent, email_sent, email_failed, signing_link_issued, viewed, signed, declined, reminded, completed, cancelled, expired',
    }),
    actor: z.object({ type: z.enum(['user', 'api_key', 'signer', 'system', 'anonymous']), id: z.string().nullable(), name: z.string() }),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    data: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
    prevHash: z.string(),
    hash: z.string().meta({ description: 'SHA-256 over the previous hash and this entry (canonical JSON): altering any entry breaks the chain' }),
  })
  .meta({ id: 'AuditEntry' });

export const signatureRequestListItem = z
  .object({
    id: z.uuid(),
    title: z.string(),
    status: requestStatusSchema,
    documentId: z.uuid(),
    documentName: z.string(),
    dueDate: z.string().nullable(),
    completedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'SignatureRequestListItem' });

export const signatureRequestDetail = signatureRequestListItem
  .extend({
    entityId: z.uuid(),
    message: z.string(),
    signingOrder: z.enum(['parallel', 'sequential']),
    autoRemind: z.boolean(),
    publicSigning: z.boolean().meta({
      description:
        "Sent while the entity was linked to a hosted instance with public pages: signing links point there, signers can sign while every device is offline, an owner's or admin's device completes and seals the request when the last signature arrives by sync, and the hosted instance e-mails the signed copies.",
    }),
    sentAt: z.string().nullable(),
    cancelledAt: z.string().nullable(),
    declinedAt: z.string().nullable(),
    expiredAt: z.string().nullable(),
    updatedAt: z.string(),
    signedDocumentSha256: z.string().nullable().meta({ description: 'SHA-256 of the sealed PDF once completed (download at …/document)' }),
    signedDocumentId: z
      .uuid()
      .nullable()
      .meta({ description: 'The signed copy filed in Documents when the request completed ("<name> (signed).pdf", in the original\'s folder), while it exists; null before completion' }),
    signers: z.array(signerSchema),
    auditLog: z.array(auditEntrySchema),
  })
  .meta({ id: 'SignatureRequest' });

export const listRequestsQuery = z.object({
  entityId: z.uuid().optional(),
  status: requestStatusSchema.optional(),
  awaitingMe: z.stringbool({ error: 'must be true or false' }).default(false).meta({
    description:
      '`true`: only requests still `sent` where the signed-in person (matched by their e-mail address) is a signer, approver or viewer (not cc) whose turn has come and who has not acted yet. Needs a signed-in person: with an API key it is a 400.',
  }),
  ...optInPaging('signature request'),
});
export const requestParams = z.object({ requestId: z.uuid() });
export const signerParams = z.object({ requestId: z.uuid(), signerId: z.uuid() });

export const createRequestBody = z.object({
  documentId: z.uuid(),
  title: z.string().trim().min(1, 'title is required').max(200),
  message: z.string().trim().max(5000).optional().meta({ description: 'Shown to signers in the invitation e-mail and on the signing page' }),
  dueDate: futureDate.optional(),
  signingOrder: z.enum(['parallel', 'sequential']).default('parallel').meta({ description: '`sequential`: each signer is invited after the previous order number has finished' }),
  autoRemind: z
    .boolean()
    .default(true)
    .meta({ description: `Automatic reminders to signers who have not acted: first after ${AUTO_REMIND.firstAfterDays} days, then every ${AUTO_REMIND.everyDays} days, at most ${AUTO_REMIND.max}.` }),
  signers: z.array(signerInput).max(50).optional(),
});

export const updateRequestBody = z
  .object({ action: z.enum(['send', 'cancel', 'complete']) })
  .meta({
    description:
      '`send` (draft → sent): needs at least one `signer` recipient, each `signer` with at least one field (approvers may have none; viewers and cc never have fields), and a future dueDate if set; e-mails the first signer(s) per signing order. `cancel` (draft|sent → cancelled). `complete` (sent → completed): only when every signer, approver and viewer has acted, e.g. after in-person signing whose sealing failed; otherwise 409.',
  });

export const updateSignerBody = signerInput.partial();

const fraction = z.number().min(0).max(1);
export const fieldInput = z
  .object({
    signerId: z.uuid(),
    type: z.enum(FIELD_TYPES),
    page: z.number().int().min(1).meta({ description: '1-based page number; must exist in the document' }),
    x: fraction.meta({ description: 'Left edge as a fraction of the page width (0 = left)' }),
    y: fraction.meta({ description: 'Top edge as a fraction of the page height (0 = top)' }),
    width: z.number().gt(0).max(1),
    height: z.number().gt(0).max(1),
    required: z.boolean().default(true),
    label: z.string().trim().max(120).optional(),
  })
  .refine((f) => f.x + f.width <= 1.000001 && f.y + f.height <= 1.000001, 'The field must lie within the page');

export const fieldSchema = z
  .object({
    id: z.uuid(),
    signerId: z.uuid(),
    type: z.enum(FIELD_TYPES),
    page: z.number().int(),
    x: z.number(),
    y: z.number(),
    width: z.number(),
    height: z.number(),
    required: z.boolean(),
    label: z.string().nullable(),
    value: z.string().nullable().meta({ description: 'Filled value once signed (signature/initials: a PNG data URL or typed text)' }),
    filledAt: z.string().nullable(),
  })
  .meta({ id: 'SignatureField', description: 'A field overlay; position and size are fractions of the page as displayed, origin top-left.' });

export const fieldParams = z.object({ requestId: z.uuid(), fieldId: z.uuid() });
export const updateFieldBody = z
  .object({
    entityId: z.uuid().optional(),
    signerId: z.uuid().optional().meta({ description: 'Give the field to another signer or approver of the request' }),
    page: z.number().int().min(1).optional().meta({ description: '1-based page number; must exist in the document' }),
    x: fraction.optional(),
    y: fraction.optional(),
    width: z.number().gt(0).max(1).optional(),
    height: z.number().gt(0).max(1).optional(),
    required: z.boolean().optional(),
    label: z.string().trim().max(120).nullable().optional().meta({ description: 'Shown to the signer instead of the field type; null or empty clears it' }),
  })
  .meta({
    description:
      'Any subset of the field\'s placement and settings (draft only); absent properties are unchanged. The field as changed must lie within its page (x + width ≤ 1, y + height ≤ 1), else 400. Recorded in the audit trail as `field_updated` with the changes.',
  });

export const addFieldsBody = z.object({ entityId: z.uuid().optional(), fields: z.array(fieldInput).min(1).max(200) });
export const removeFieldsBody = z
  .object({ entityId: z.uuid().optional(), fieldIds: z.array(z.uuid()).min(1).max(500).optional(), signerId: z.uuid().optional() })
  .refine((b) => Boolean(b.fieldIds) !== Boolean(b.signerId), 'Give either fieldIds or signerId')
  .meta({ description: '`fieldIds`: remove these fields (any id that is not a field of this request → 400). `signerId`: remove all fields of that signer.' });

export const remindResponse = z.object({
  reminded: z.array(z.object({ signerId: z.uuid(), name: z.string(), email: z.string() })),
  mailConfigured: z.boolean().meta({ description: 'false: the reminders are queued until this device has an SMTP server or the business is linked to a hosted instance' }),
});

export const verifyResponse = z
  .object({ valid: z.boolean(), entries: z.number().int(), brokenAt: z.number().int().nullable(), reason: z.string().nullable(), headHash: z.string().nullable() })
  .meta({ id: 'AuditVerification' });

export const signingLinkResponse = z.object({ url: z.string(), token: z.string().meta({ description: "The signer's token for /api/sign/{token}" }) });

export const partySchema = z
  .object({
    name: z.string(),
    email: z.string(),
    userId: z.uuid().nullable(),
    isMember: z.boolean(),
    lastUsedAt: z.string().nullable().meta({ description: 'When this person was last added as a signer' }),
    timesUsed: z.number().int(),
  })
  .meta({ id: 'SignatureParty', description: 'Someone who can be added as a signer: a member of the entity or a past signer (merged by e-mail).' });
export const partiesQuery = z.object({ entityId: z.uuid().optional(), search: z.string().trim().max(200).optional().meta({ description: 'Case-insensitive match on name or e-mail' }) });

// Public signing
export const tokenParams = z.object({ token: z.string().min(20).max(128).regex(/^[A-Za-z0-9_-]+$/, 'Malformed signing token') });
export const signBody = z
  .discriminatedUnion('action', [
    z.object({
      action: z.literal('sign'),
      fields: z
        .array(z.object({ fieldId: z.uuid(), value: z.union([safeText().max(400_000), z.boolean()]) }))
        .max(500)
        .default([]),
    }),
    z.object({ action: z.literal('decline'), reason: safeText().trim().min(1, 'A reason is required').max(1000) }),
  ])
  .meta({
    description:
      'sign: values for this signer\'s fields. signature/initials: a drawn `data:image/png;base64,…` (≤ 300 KB) or typed text; name, email and date are filled from the signer and the signing date when omitted; checkbox: true/false (a required checkbox must be checked). decline: ends the request for everyone (status declined).',
  });

export const signingViewSchema = z
  .object({
    request: z.object({
      id: z.uuid(),
      title: z.string(),
      message: z.string(),
      status: requestStatusSchema,
      documentName: z.string(),
      pageCount: z.number().int(),
      pages: z.array(z.object({ width: z.number(), height: z.number() })),
      dueDate: z.string().nullable(),
      signingOrder: z.enum(['parallel', 'sequential']),
      senderName: z.string().nullable(),
      completedAt: z.string().nullable(),
    }),
    signer: z.object({ id: z.uuid(), name: z.string(), email: z.string(), role: signerRoleSchema, status: z.enum(['pending', 'signed', 'declined']), signedAt: z.string().nullable() }),
    fields: z.array(fieldSchema),
    canSign: z.boolean(),
    waitingFor: z.array(z.string()).meta({ description: 'Names of signers who must act first (sequential order)' }),
  })
  .meta({ id: 'SigningView' });
