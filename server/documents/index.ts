import type { Module } from '../kernel/module.js';
import { fact, guardedExcept, local, mutable, secret } from '../kernel/sync-policy.js';
import { extractDocumentTexts } from './extract-texts.js';
import { recordMailResults } from './mail-audit.js';
import { runAutoReminders } from './reminders.js';
import { documentsModuleRoutes } from './routes.js';
import { expireOverdueRequests } from './transitions.js';
import { completeSignedRequests } from './complete-signed.js';
import { reactToHostedSigning } from './hosted-signing.js';
import { signingMailReasonGone } from './mail-reason.js';
import { registerMailReasonCheck } from '../mail/index.js';
import { documentEvents } from './events.js';

// The signing core (rules, use cases, audit chain; storage behind `SigningStore`): the hosted signing pages use it too.
export * from './signing-core/index.js';

export const documentsModule: Module = {
  name: 'documents',
  routes: documentsModuleRoutes,
  events: documentEvents,
  sync: {
    documents: { kind: 'mutable', blobs: ['sha256'] },
    // Status moves are guarded transitions, and so is every audit entry (through audit_head): two
    // devices deciding the same request, or appending to its chain unaware of each other, cannot
    // both win — the later one is undone on its device. The link base is this device's own URL.
    signature_requests: guardedExcept(['status', 'audit_head'], { link_base_url: null }, ['signed_sha256']),
    // A signer's token stays sealed on the device that made it; others know only its hash.
    signers: guardedExcept(['status'], { token_sealed: '' }),
    signature_fields: mutable,
    signature_audit: fact,
    signing_certificates: secret('the seal key stays on the owner devices that hold it'),
    // Each device reads the text of the PDFs it holds, and indexes it with the names.
    document_texts: local('read from the PDFs this device holds'),
    documents_search_docs: local('the full-text index, derived from documents and their text by triggers'),
  },
  onHostedChanges: reactToHostedSigning,
  start(ctx) {
    registerMailReasonCheck(ctx, signingMailReasonGone);
    ctx.events.registerConsumer('documents.mail-audit', recordMailResults(ctx));
    ctx.loops.add('documents.expire', 60_000, () => void expireOverdueRequests(ctx));
    ctx.loops.add('documents.reminders', 15 * 60_000, () => void runAutoReminders(ctx));
    // Requests whose last signature came by sync from the hosted signing pages.
    // PDFs with no text read yet: uploads the request path left to it, documents that arrived by sync.
    ctx.loops.add('documents.extract-text', 30_000, async () => void (await extractDocumentTexts(ctx)));
    ctx.loops.add('documents.complete-signed', 5_000, async () => void (await completeSignedRequests(ctx)));
  },
};
export { documentsInFolders } from './placement.js';
export { searchDocuments } from './search-hits.js';
export { html as mailHtml, text as mailText } from './notify.js';
export { UNKNOWN_LINK_RATE } from './sign-routes.js';
// What the hosted instance's signing pages and mail use of documents.
export { signBody, signingViewSchema, tokenParams } from './request-schemas.js';
export { setPdfHeaders } from './send-pdf.js';
export { signedName } from './signed-copy.js';
export { signedCopyMailContent, signingMailContent } from './notify.js';
export { signingUrl } from './signers.js';
