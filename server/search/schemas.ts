import { z } from 'zod';
import { MAX_SEARCH_TEXT } from '../db/fts.js';

export const SEARCH_AREAS = ['tickets', 'documents', 'ledgerEvents'] as const;
export type SearchArea = (typeof SEARCH_AREAS)[number];

export const MAX_SEARCH_LIMIT = 20;

/** The entity is read as for other routes (query `entityId`, or `x-entity-id`) by the handler: access is per area. */
export const searchQuery = z.object({
  q: z
    .string('q is required')
    .trim()
    .min(1, 'q is required')
    .max(MAX_SEARCH_TEXT, `must be at most ${MAX_SEARCH_TEXT} characters`)
    .refine((v) => /[\p{L}\p{N}]/u.test(v), 'must contain a letter or digit')
    .meta({ description: 'The words to find: every word must appear (as the beginning of a word, ignoring case and accents); FTS operators are plain words.' }),
  limit: z.coerce
    .number('must be a number')
    .int('must be an integer')
    .min(1, 'must be at least 1')
    .max(MAX_SEARCH_LIMIT, `must be at most ${MAX_SEARCH_LIMIT}`)
    .default(5)
    .meta({ description: `Results per area (1–${MAX_SEARCH_LIMIT}, default 5).` }),
});

const snippetPartSchema = z.object({ text: z.string(), match: z.boolean().meta({ description: 'A searched word matched here' }) }).meta({ id: 'SearchSnippetPart' });

export const searchHitSchema = z
  .object({
    id: z.uuid().meta({ description: "The result's id: a ticket, document or ledger event, by its group's area" }),
    title: z.string().meta({ description: "A ticket's subject, a document's name, a ledger event's journal description (or its type)" }),
    detail: z.string().nullable(),
    snippet: z.array(snippetPartSchema).meta({ description: "Where the words matched (a ticket's subject, description, contact or one of its messages; a document's name or text), as text runs with the matched words marked, to render without markup" }),
  })
  .meta({ id: 'SearchHit' });

export const searchGroupSchema = z
  .object({
    area: z.enum(SEARCH_AREAS),
    hits: z.array(searchHitSchema),
    more: z.boolean().meta({ description: 'More matches than `limit`: the area\'s own list (its `q`) shows them all' }),
  })
  .meta({ id: 'SearchGroup' });

export const searchResponse = z
  .object({ q: z.string(), groups: z.array(searchGroupSchema).meta({ description: 'One group per area the caller may read, in a fixed order (tickets, documents, ledger events), empty ones included' }) })
  .meta({ id: 'SearchResults' });

export type SearchResults = z.infer<typeof searchResponse>;
