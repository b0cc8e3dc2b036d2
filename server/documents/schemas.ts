import { z } from 'zod';
import { searchTextParam } from '../db/fts.js';
import { optInPaging } from '../http/cursor.js';

export const pageSizeSchema = z.object({ width: z.number(), height: z.number() }).meta({ id: 'PageSize', description: 'Page size in PDF points (1/72 in) as displayed (rotation applied)' });

export const documentSchema = z
  .object({
    id: z.uuid(),
    entityId: z.uuid(),
    folderId: z.uuid().nullable(),
    name: z.string(),
    sha256: z.string().meta({ description: 'SHA-256 (hex) of the stored PDF bytes' }),
    size: z.number().int(),
    pageCount: z.number().int(),
    pages: z.array(pageSizeSchema),
    position: z.number().int().nullable().meta({ description: 'Manual position in its folder (see reorder); null = not ordered yet' }),
    uploadedBy: z.uuid().nullable(),
    signedFromRequestId: z.uuid().nullable().meta({ description: 'Set on the signed copy filed back when a signature request completed: that request (null for uploads)' }),
    originalDocumentId: z.uuid().nullable().meta({ description: 'Set on a filed signed copy: the document the request was signed from' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Document' });

export const documentParams = z.object({ documentId: z.uuid() });
export const uploadQuery = z.object({
  entityId: z.uuid().optional(),
  name: z.string().trim().min(1).max(200).optional().meta({ description: 'Document name; defaults to the uploaded file name' }),
  folderId: z.uuid().optional(),
});
export const listDocumentsQuery = z.object({
  entityId: z.uuid().optional(),
  folderId: z
    .union([z.uuid(), z.literal('root')])
    .optional()
    .meta({ description: 'Only documents of this folder, in its manual order (`root` = unfiled documents). Without it: every visible document, newest first.' }),
  search: z.string().trim().max(200).optional().meta({ description: 'Case-insensitive substring of the name' }),
  q: searchTextParam("documents whose name or PDF text (read in the background after the upload, so found a moment later than the name)"),
  ...optInPaging('document'),
});
export const updateDocumentBody = z.object({
  entityId: z.uuid().optional(),
  name: z.string().trim().min(1, 'name is required').max(200).optional(),
  folderId: z.uuid().nullable().optional().meta({ description: 'Move to this folder (null = unfiled); the document goes to the end of its new folder\'s manual order' }),
});
