import type { RouteDef } from '../http/route.js';
import { route } from '../http/route.js';
import { WALLET_ERROR_DOCS as E } from './errors.js';
import * as s from './schemas.js';
import { relayLimiter } from './rate-limit.js';

// The handlers' modules bring viem, permissionless, the prover and the privacy library (hundreds
// of modules, most of the server's start time and idle memory): they load on the first request
// that needs them, not at start.
const publicAccounts = () => import('./public-accounts.js');
const initialize = () => import('./initialize.js');
const balances = () => import('./balances.js');

const tags = ['Shielded transfers'];
/** Session only: keys and proving stay with a signed-in member on this device; API keys get 403. */
const privacy = { entity: 'QB', permission: 'PRIVACY.USE' } as const;
const readPrivacy = { entity: 'QBH', permission: 'PRIVACY.USE' } as const;
const NOT_INITIALIZED = 'Privacy not initialized';

export const walletRoutes: RouteDef[] = [
  route(
    { method: 'post', path: '/api/privacy/initialize', summary: "Create the entity's shielded keys and smart account (idempotent)", tags, access: privacy, body: s.entityBody, response: s.initializeResponse },
    async ({ ctx, entityId }) => (await initialize()).initializePrivacy(ctx, entityId),
  ),
  route(
    { method: 'get', path: '/api/privacy/status', summary: 'Whether privacy is initialized, addresses, chain configuration (without secrets) and indexer height', tags, access: readPrivacy, query: s.entityQuery, response: s.statusResponse },
    async ({ ctx, entityId }) => (await initialize()).getPrivacyStatus(ctx, entityId),
  ),
  route(
    { method: 'get', path: '/api/privacy/balance', summary: 'Spendable shielded balance per token (unspent notes)', tags, access: readPrivacy, query: s.balanceQuery, response: s.balanceResponse, errors: { 400: NOT_INITIALIZED, 503: E.notConfigured } },
    async ({ ctx, entityId, query }) => (await balances()).getShieldedBalance(ctx, entityId, query),
  ),
  route(
    { method: 'get', path: '/api/privacy/notes', summary: "The entity's shielded notes", tags, access: readPrivacy, query: s.notesQuery, response: s.notesResponse, errors: { 400: NOT_INITIALIZED, 503: E.notConfigured } },
    async ({ ctx, entityId, query }) => (await balances()).listShieldedNotes(ctx, entityId, query),
  ),
  route(
    {
      method: 'get',
      path: '/api/privacy/accounts',
      summary: "The business's public smart account and this install's relayer: addresses and native balances",
      description: 'What a newcomer must fund before shielding (the smart account pays network fees) and relaying (the relayer pays gas). Balances are null while the chain cannot be read.',
      tags,
      access: readPrivacy,
      query: s.balanceQuery.pick({ entityId: true, chain: true }),
      response: s.publicAccountsResponse,
      errors: { 400: NOT_INITIALIZED, 409: 'The wallet is held on another device', 503: E.notConfigured },
    },
    async ({ ctx, entityId, query }) => (await publicAccounts()).getPublicAccounts(ctx, entityId, query),
  ),
  route(
    {
      method: 'post',
      path: '/api/privacy/devnet-fund',
      summary: 'Local development chain only: send 1 of the native coin to the smart account or the relayer',
      description: "From the local node's unlocked development account (anvil), so the wallet can be tried without a faucet. On any chain but 31337 → 400.",
      tags,
      access: privacy,
      body: s.devnetFundBody,
      response: s.devnetFundResponse,
      errors: { 400: `${NOT_INITIALIZED} · not a local development chain`, 502: 'The local chain did not take the transfer', 503: E.notConfigured },
    },
    async ({ ctx, entityId, body }) => (await publicAccounts()).fundFromDevnet(ctx, entityId, body),
  ),
  route(
    {
      method: 'post',
      path: '/api/privacy/resync',
      summary: "Rebuild the wallet's notes and the chain's tree from the chain (keys untouched)",
      description:
        "For a chain that was reset (status `chainReset`) or that the wallet no longer trusts. Rebuilds this install's index of the chain from the pool's deploy block and every entity's notes from it; history is kept. After a reset, notes from before are dropped, transfers still pending on the old chain fail, and the books reverse what the reset undid (`chain_reset`). Refused while a transfer is in flight on the chain.",
      tags,
      access: privacy,
      body: s.resyncBody,
      response: s.resyncResponse,
      errors: { 400: NOT_INITIALIZED, 409: "A transfer is in flight on this chain · the chain's RPC answers another chain id", 502: 'Chain indexer could not sync', 503: E.notConfigured },
    },
    async ({ ctx, entityId, body }) => (await import('./resync.js')).resyncWallet(ctx, entityId, body),
  ),
  route(
    { method: 'get', path: '/api/privacy/history', summary: 'Shielded history: shielded, sent, received, unshielded (newest first)', tags, access: readPrivacy, query: s.historyQuery, response: s.historyResponse, errors: { 400: NOT_INITIALIZED } },
    async ({ ctx, entityId, query }) => (await balances()).listShieldedHistory(ctx, entityId, query),
  ),
  route(
    {
      method: 'post',
      path: '/api/privacy/shield',
      summary: "Deposit into the private ledger from the entity's smart account",
      description: 'Proves the deposit on this device and submits a UserOperation (approve + transact for an ERC-20) to the chain\'s bundler.',
      tags,
      access: privacy,
      body: s.shieldBody,
      response: s.shieldResponse,
      errors: { 400: `entityId required · Privacy not initialized · Valid amount required · ${E.insufficientPublic}`, 502: `${E.bundlerDown} · ${E.bundlerRejected} · The chain's RPC could not be reached`, 503: E.notConfigured, 504: E.proverTimeout },
    },
    async ({ ctx, entityId, body }) => (await import('./shield.js')).shieldFunds(ctx, entityId, body),
  ),
  route(
    {
      method: 'post',
      path: '/api/privacy/prove-transfer',
      summary: 'Build a JoinSplit proof bundle for a private transfer (proved on this device)',
      tags,
      access: privacy,
      body: s.proveTransferBody,
      response: s.proveTransferResponse,
      errors: { 400: `Privacy not initialized · Valid amount required · bad recipientAddress · ${E.insufficient}`, 503: E.notConfigured, 504: E.proverTimeout },
    },
    async ({ ctx, entityId, body }) => (await import('./prove-transfer.js')).proveTransfer(ctx, entityId, body),
  ),
  route(
    {
      method: 'post',
      path: '/api/privacy/unshield',
      summary: 'Withdraw to a public address (proved here, submitted through the relay)',
      tags,
      access: privacy,
      body: s.unshieldBody,
      response: s.unshieldResponse,
      errors: { 400: `Privacy not initialized · Valid amount required · ${E.insufficient}`, 409: `${E.invalidRoot} · ${E.spentNullifier}`, 502: `${E.bundlerDown} · ${E.bundlerRejected}`, 503: E.notConfigured, 504: E.proverTimeout },
    },
    async ({ ctx, entityId, body }) => (await import('./unshield.js')).unshieldFunds(ctx, entityId, body),
  ),
  route(
    {
      method: 'post',
      path: '/api/privacy/transfers/prepare',
      summary: 'Prove a send or unshield ahead of Confirm (the proof stays on this device)',
      description:
        "Called when the person reaches the confirm screen, with everything the transfer binds (amount, recipient, token, purpose; the relay quote is fetched here). Answers once proved, with a `preparedId`; the proof itself is kept in this server's memory, for this entity only, until Confirm uses it once, another prepare for the same entity and chain replaces it, or `expiresAt` passes. Nothing is recorded or sent.",
      tags,
      access: privacy,
      body: s.prepareTransferBody,
      response: s.prepareTransferResponse,
      errors: { 400: `Privacy not initialized · Valid amount required · bad recipient · ${E.insufficient}`, 409: 'This chain was reset: notes from before are gone', 502: 'Hosted relay unreachable · Chain indexer could not sync', 503: E.notConfigured, 504: E.proverTimeout },
    },
    async ({ ctx, entityId, body }) => (await import('./prepared-transfer.js')).prepareTransfer(ctx, entityId, body),
  ),
  route(
    {
      method: 'post',
      path: '/api/privacy/transfers/confirm',
      summary: 'Confirm a send or unshield: relay the prepared proof, or prove now if it does not fit',
      description:
        "Relays the proof `preparedId` names when it was proved for exactly this transfer (same entity, kind, chain, token, amount, recipient and purpose), has not expired and its root and notes are still good; otherwise proves now (`reproveReason` says why). Records the history row (`proved`, then `submitted`) and relays it through the entity's relay. A relay that fails for a passing reason (bundler or chain unreachable) leaves the row `proved` with `relayError`: Try again (POST /api/privacy/transfers/{id}/retry). A resync of the chain is refused while a Confirm is under way.",
      tags,
      access: privacy,
      body: s.confirmTransferBody,
      response: s.confirmTransferResponse,
      errors: { 400: `Privacy not initialized · Valid amount required · bad recipient · ${E.insufficient}`, 409: `${E.invalidRoot} · ${E.spentNullifier}`, 502: `${E.bundlerDown} · ${E.bundlerRejected} · Hosted relay unreachable`, 503: E.notConfigured, 504: E.proverTimeout },
    },
    async ({ ctx, entityId, body }) => (await import('./prepared-transfer.js')).confirmTransfer(ctx, entityId, body),
  ),
  route(
    {
      method: 'post',
      path: '/api/privacy/transfers/{id}/retry',
      summary: 'Try again: relay a send or unshield whose relay failed',
      description:
        'With the same proof while its Merkle root is still one of the pool\'s and its deadline and quote hold; otherwise proved again from the history row (amount, recipient, purpose), which takes the new proof. Refused (409) for a transfer already submitted or confirmed, one whose notes were spent (it may have gone through: sending again could pay twice), or one a reorganisation undid.',
      tags,
      access: privacy,
      params: s.retryParams,
      body: s.entityBody,
      response: s.retryResponse,
      errors: { 400: 'Only a send or an unshield can be tried again', 404: 'Unknown transfer', 409: 'Already submitted or confirmed · its notes were spent', 502: `${E.bundlerDown} · ${E.bundlerRejected}`, 503: E.notConfigured, 504: E.proverTimeout },
    },
    async ({ ctx, entityId, params }) => (await import('./retry-transfer.js')).retryTransfer(ctx, entityId, params.id),
  ),
  route(
    {
      method: 'get',
      path: '/api/privacy/health',
      summary: "Whether the chain's node and bundler answer now, and what an outage stops",
      tags,
      access: readPrivacy,
      query: s.relayQuoteQuery.pick({ entityId: true, chain: true }),
      response: s.chainHealthResponse,
      errors: { 503: E.notConfigured },
    },
    async ({ ctx, query }) => (await import('./chain-health.js')).getChainHealth(ctx, query),
  ),
  route(
    {
      method: 'get',
      path: '/api/privacy/relay-quote',
      summary: 'Which relayer a transfer would be built for, and its fee',
      description:
        "A linked entity relays through its hosted instance (the hosted relayer's quote: its fee is paid from the shielded funds, on top of the amount); an unlinked entity, or a token the hosted relay takes no fee in, uses this install's relayer (fee 0). prove-transfer and unshield fetch a fresh quote themselves.",
      tags,
      access: readPrivacy,
      query: s.relayQuoteQuery,
      response: s.relayChoiceSchema,
      errors: { 502: 'Hosted relay unreachable', 503: E.notConfigured },
    },
    async ({ ctx, entityId, query }) => (await import('./relay-info.js')).previewRelay(ctx, entityId, query),
  ),
  route(
    {
      method: 'get',
      path: '/api/privacy/relay-jobs/{jobId}',
      summary: "Progress of a transfer the entity's hosted relay took (submitted → confirmed | failed)",
      tags,
      access: readPrivacy,
      params: s.relayJobParams,
      response: s.relayJobResponse,
      errors: { 404: 'Unknown relay job', 502: 'Hosted relay unreachable' },
    },
    async ({ ctx, entityId, params }) => (await import('./relay-info.js')).getRelayJob(ctx, entityId, params.jobId),
  ),
  route(
    {
      method: 'post',
      path: '/api/relay/transfer',
      summary: 'Anonymous relay of a proved transfer bundle',
      description:
        "No authentication. Limited to 20 requests per minute per client IP (every request counts, valid or not). The relay sees only proof data and ciphertexts; a bundle is keyed on its nullifiers, so resubmitting it returns the first userOpHash (`replayed: true`). A bundle that carries a hosted relay's `quote` (a linked entity's, proved on this install) is submitted to that entity's hosted instance, without credentials; the answer then names the relay job (`via: hosted`, `jobId`).",
      tags,
      access: 'public',
      // Invalid payloads must count against the rate limit too: the body is validated in the handler.
      body: s.relayBody.catch(() => undefined as never),
      response: s.relayResponse,
      errors: { 409: `${E.invalidRoot} · ${E.spentNullifier}`, 429: 'Rate limited (Retry-After header)', 502: `${E.bundlerDown} · ${E.bundlerRejected}`, 503: E.notConfigured },
    },
    async ({ ctx, req, ip, body }) => {
      relayLimiter(ctx).hit(ip);
      const valid = body ?? s.relayBody.parse(req.body ?? {});
      return (await import('./relay.js')).relayTransfer(ctx, valid);
    },
  ),
];
