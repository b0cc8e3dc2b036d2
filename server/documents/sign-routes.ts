import { route, type RouteDef } from '../http/route.js';
import { signBody, signingViewSchema, tokenParams } from './request-schemas.js';
import { signerDocument, submitSigning, viewAsSigner } from './signing.js';
import { sendPdf } from './send-pdf.js';

const tags = ['Signing (public)'];
const note = 'Public: the unguessable signing token in the path is the credential (stored only as a SHA-256 hash). It gives access to this one signer\'s view of this one request and nothing else.';

export const signingRoutes: RouteDef[] = [
  route(
    { method: 'get', path: '/api/sign/{token}', summary: 'The request as this signer sees it', description: `${note} The first open is recorded as \`viewed\` in the audit trail.`, tags, access: 'public', params: tokenParams, response: signingViewSchema, errors: { 404: 'Unknown signing link' } },
    ({ ctx, params, ip, userAgent }) => viewAsSigner(ctx, params.token, { ip, userAgent }),
  ),
  route(
    {
      method: 'post',
      path: '/api/sign/{token}',
      summary: 'Sign (fill your fields) or decline',
      description: `${note} When the last signer signs, the request completes: the sealed PDF is produced and everyone is e-mailed. 409 when the request is not sent, it is not this signer's turn (sequential order), or the signer has already acted.`,
      tags,
      access: 'public',
      params: tokenParams,
      body: signBody,
      response: signingViewSchema,
      errors: { 404: 'Unknown signing link', 409: 'Not allowed now' },
    },
    ({ ctx, params, body, ip, userAgent }) => submitSigning(ctx, params.token, body, { ip, userAgent }),
  ),
  route(
    { method: 'get', path: '/api/sign/{token}/document', summary: 'The PDF to sign (the sealed PDF once completed)', description: note, tags, access: 'public', params: tokenParams, produces: 'application/pdf', errors: { 404: 'Unknown signing link' } },
    ({ ctx, params, res }) => {
      const doc = signerDocument(ctx, params.token);
      sendPdf(res, doc.data, doc.name);
    },
  ),
];
