import { z } from 'zod';
import { LONG_READ_BUSY_DOC } from '../db/read-pool.js';
import { route, type RouteDef } from '../http/route.js';
import { BadRequestError } from '../http/errors.js';
import { accessorOf } from '../folders/index.js';
import { deleteDocument, getVisibleDocument, presentDocument, updateDocument, uploadDocument } from './documents.js';
import { listAllDocumentsJson, listDocuments } from './list-documents.js';
import { readUpload, MAX_PDF_BYTES } from './upload.js';
import * as s from './schemas.js';
import { sendPdf } from './send-pdf.js';
import { signatureRequestRoutes } from './request-routes.js';
import { signingRoutes } from './sign-routes.js';

const tags = ['Documents'];
const view = { entity: 'QBH', permission: 'DOCUMENTS.VIEW', scope: 'read:documents' } as const;
const edit = { entity: 'QBH', permission: 'DOCUMENTS.EDIT', scope: 'write:documents' } as const;

const documentRoutes: RouteDef[] = [
  route(
    {
      method: 'get',
      path: '/api/documents',
      summary: 'List documents',
      description:
        'Filters: `folderId` (a folder in its manual order, or `root`), `search` (substring of the name), `q` (full-text over the name and PDF text). Without `folderId` newest first. Documents in folders the caller may not see are left out. Without `limit` and `cursor` the body is every matching document. Paging is opt-in: with `limit` (1–200) and/or `cursor` (default page size 50) the body is one page; when more remain the response has `x-next-cursor` (pass it as `cursor`, with the same filters). `x-total-count` is always the number of matching documents. The body is a plain array either way. A cursor that is not one this list handed out, or a bad `limit`, is a 400.',
      tags,
      access: view,
      query: s.listDocumentsQuery,
      response: z.array(s.documentSchema),
      errors: { 503: `Unpaged: ${LONG_READ_BUSY_DOC}` },
    },
    ({ ctx, entityId, auth, query, res }) => {
      // Unpaged, the body is every matching document: read and serialised off the request path.
      if (query.limit === undefined && query.cursor === undefined) {
        return listAllDocumentsJson(ctx, entityId, accessorOf(ctx, entityId, auth), query, (total) => res.setHeader('x-total-count', String(total)));
      }
      const page = listDocuments(ctx, entityId, accessorOf(ctx, entityId, auth), query);
      res.setHeader('x-total-count', String(page.total));
      if (page.nextCursor) res.setHeader('x-next-cursor', page.nextCursor);
      return page.items;
    },
  ),
  route(
    {
      method: 'post',
      path: '/api/documents',
      summary: 'Upload a PDF',
      description: `Send the PDF as the raw body (\`Content-Type: application/pdf\`, name in \`?name=\`, \`x-filename\` or Content-Disposition) or as \`multipart/form-data\` with one \`file\` part (optional \`name\` and \`folderId\` parts). At most ${MAX_PDF_BYTES / 1024 / 1024} MB (413). Not a PDF, unreadable or encrypted → 400; another content type → 415. Stored content-addressed; the record carries its SHA-256, page count and page sizes.`,
      tags,
      access: edit,
      query: s.uploadQuery,
      response: s.documentSchema,
      status: 201,
      errors: { 413: 'File too large', 415: 'Not application/pdf or multipart/form-data' },
    },
    async ({ ctx, req, entityId, auth, query }) => {
      const upload = await readUpload(req);
      const folderId = query.folderId ?? (upload.fields.folderId || undefined);
      if (folderId && !z.uuid().safeParse(folderId).success) throw new BadRequestError('folderId must be a UUID');
      const name = query.name ?? (upload.fields.name?.trim() || undefined);
      if (name && name.length > 200) throw new BadRequestError('name must be at most 200 characters');
      return uploadDocument(ctx, entityId, accessorOf(ctx, entityId, auth), { data: upload.data, filename: upload.filename, name, folderId }, auth?.kind === 'session' ? auth.userId : null);
    },
  ),
  route(
    { method: 'get', path: '/api/documents/{documentId}', summary: 'Get a document', tags, access: view, params: s.documentParams, response: s.documentSchema },
    ({ ctx, entityId, auth, params }) => presentDocument(getVisibleDocument(ctx, entityId, accessorOf(ctx, entityId, auth), params.documentId)),
  ),
  route(
    { method: 'get', path: '/api/documents/{documentId}/content', summary: 'Download the PDF', tags, access: view, params: s.documentParams, produces: 'application/pdf' },
    ({ ctx, entityId, auth, params, res }) => {
      const d = getVisibleDocument(ctx, entityId, accessorOf(ctx, entityId, auth), params.documentId);
      sendPdf(res, ctx.blobs.get(d.sha256), d.name);
    },
  ),
  route(
    { method: 'patch', path: '/api/documents/{documentId}', summary: 'Rename or move a document', tags, access: edit, params: s.documentParams, body: s.updateDocumentBody, response: s.documentSchema },
    ({ ctx, entityId, auth, params, body }) => updateDocument(ctx, entityId, accessorOf(ctx, entityId, auth), params.documentId, body),
  ),
  route(
    {
      method: 'delete',
      path: '/api/documents/{documentId}',
      summary: 'Delete a document',
      description: 'Refused (409) while a signature request uses the document (its audit trail refers to the bytes). The bytes stay in the content-addressed blob store, which never overwrites or removes files in place.',
      tags,
      access: edit,
      params: s.documentParams,
      response: z.object({ deleted: z.boolean() }),
      errors: { 409: 'Used by a signature request' },
    },
    ({ ctx, entityId, auth, params }) => deleteDocument(ctx, entityId, accessorOf(ctx, entityId, auth), params.documentId),
  ),
];

// Fixed paths (/folders, /signature-requests, /signature-parties) before /{documentId}.
export const documentsModuleRoutes: RouteDef[] = [...signatureRequestRoutes, ...documentRoutes, ...signingRoutes];
