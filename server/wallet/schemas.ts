// Request and response schemas of the privacy and relay routes (spec section 4.4). Fields the
// contract lists are named as it names them; additions are documented in `description`.
import { z } from 'zod';
import { safeText } from '../http/safe-text.js';
import { ACTIVITY_KINDS, ACTIVITY_STATUSES } from './tables.js';

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/, 'must be a 0x-prefixed hex string');
const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex string');
const addressString = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address');
const uuid = z.uuid();
const chainField = safeText().min(1).max(64).optional().meta({ description: 'Chain name; default `base-sepolia`' });
const tokenField = z.string().optional().meta({ description: 'ERC-20 contract address; omitted or the zero address means native ETH' });
/** Amount checks run in the use case so every invalid amount answers `Valid amount required`. */
const amountField = z
  .string()
  .catch(undefined as unknown as string)
  .meta({ description: 'Decimal string of base units (wei or token units), greater than zero', example: '1000000000000000' });

const accountCodeField = z.string().regex(/^[0-9]{3,6}$/, 'must be an account code (3–6 digits)');

/** What a private payment out pays, as the sender says; it decides the account the books debit. */
export const paymentPurpose = z
  .discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('bill'), billNumber: safeText().min(1).max(60).meta({ description: 'The supplier bill it pays: settles Accounts payable' }) }),
    z.strictObject({ kind: z.literal('expense'), account: accountCodeField.meta({ description: 'One of the entity’s expense accounts (e.g. 6500 Software and subscriptions)' }) }),
    z.strictObject({ kind: z.literal('own_business') }).meta({ description: "One of the owner's other businesses: Due from own businesses (1150)" }),
    z.strictObject({ kind: z.literal('owner_drawing') }).meta({ description: 'Taken out by the owner: Owner drawings (3200)' }),
  ])
  .optional()
  .meta({
    id: 'PaymentPurpose',
    description:
      'What the payment pays, booked with it when it confirms: `bill` (settles Accounts payable for `billNumber`), `expense` (an expense `account`), `own_business`, `owner_drawing`. Omitted: booked to Uncategorised payments (1900) until someone says (Ledger → reclassify with a payload, or the wallet’s “Say what it was”). Payments never book to Accounts payable without a bill.',
  });

export const entityBody = z.object({ entityId: uuid.optional() }).meta({ id: 'PrivacyInitializeBody' });

export const chainAccountSchema = z.object({
  chain: z.string(),
  configured: z.boolean(),
  chainId: z.number().nullable(),
  rpc: z.string().nullable().meta({ description: 'Scheme and host only (paths and queries often carry API keys)' }),
  bundler: z.string().nullable(),
  paymaster: z.string().nullable(),
  entryPoint: z.string().nullable(),
  pool: z.string().nullable(),
  nativeSymbol: z.string().nullable(),
  tokens: z.array(z.object({ address: z.string(), symbol: z.string().nullable(), decimals: z.number().nullable() })),
  accountAddress: z.string().nullable().meta({ description: "The entity's SimpleAccount (EntryPoint v0.8) on this chain" }),
  relayerAddress: z.string().nullable().meta({ description: "This install's relayer account on this chain" }),
  indexedBlock: z.string().nullable().meta({ description: 'Last block the local indexer has read' }),
  leaves: z.number().nullable().meta({ description: 'Commitments in the local Merkle tree' }),
  problem: z.string().nullable().meta({ description: 'Why a configured chain is unusable' }),
  chainReset: z.boolean().meta({ description: 'The chain behind this name is not the one the notes came from (another genesis, or its history changed beyond the reorganisation window): nothing is spent until POST /api/privacy/resync' }),
});

export const initializeResponse = z
  .object({
    success: z.literal(true),
    initialized: z.literal(true),
    created: z.boolean().meta({ description: 'false when privacy was already initialized (the call is idempotent)' }),
    shieldedAddress: z.string().meta({ description: 'Receive address: `bzk1` + pubkey, viewing key and checksum' }),
    ownerAddress: z.string().meta({ description: "Public address of the smart account's owner key (kept on this device)" }),
    accountAddress: z.string().nullable().meta({ description: "The entity's smart-account address on the default chain, when configured" }),
    accounts: z.array(z.object({ chain: z.string(), address: z.string().nullable() })),
  })
  .meta({ id: 'PrivacyInitializeResponse' });

export const statusResponse = z
  .object({
    initialized: z.boolean(),
    heldElsewhere: z.boolean().meta({ description: "The entity's wallet keys are on another of its devices (sync): this device shows the wallet and its history read-only; initialize, shield, prove and unshield answer 409 here." }),
    keysUnavailable: z.boolean().meta({ description: "The wallet's keys are here but sealed by another machine's key (its business was restored or imported without the recovery passphrase): it cannot spend or see its notes on this install; shield, prove and unshield answer 409." }),
    shieldedAddress: z.string().nullable(),
    ownerAddress: z.string().nullable(),
    defaultChain: z.string(),
    chains: z.array(chainAccountSchema),
  })
  .meta({ id: 'PrivacyStatus' });

export const entityQuery = z.object({ entityId: uuid.optional() });
export const balanceQuery = z.object({ entityId: uuid.optional(), chain: chainField, token: tokenField });

export const balanceResponse = z
  .object({
    chain: z.string(),
    balances: z.array(
      z.object({
        token: z.string(),
        symbol: z.string().nullable(),
        decimals: z.number().nullable(),
        amount: z.string().meta({ description: 'Spendable: the sum of unspent notes, base units' }),
        notes: z.number(),
        pending: z.string().meta({ description: 'Notes committed to a submitted but unconfirmed spend' }),
        unavailable: z.string().meta({ description: "Notes the chain's indexed tree does not hold (a reset or reorganised chain): never spent, base units" }),
        unavailableReason: z.string().nullable().meta({ description: 'Why `unavailable` notes cannot be spent' }),
      }),
    ),
  })
  .meta({ id: 'ShieldedBalance' });

export const activitySchema = z
  .object({
    id: z.string(),
    kind: z.enum(ACTIVITY_KINDS),
    status: z.enum(ACTIVITY_STATUSES),
    chain: z.string(),
    token: z.string(),
    amount: z.string(),
    fee: z.string().meta({ description: 'Relayer fee paid from the shielded funds on top of the amount (base units)' }),
    counterparty: z.string().nullable(),
    proofId: z.string().nullable(),
    userOpHash: z.string().nullable(),
    txHash: z.string().nullable(),
    error: z.string().nullable(),
    purpose: z.record(z.string(), z.unknown()).nullable().meta({ description: 'What a payment out pays (PaymentPurpose), when said' }),
    relayError: z.string().nullable().optional().meta({ description: 'Why the last relay of a `proved` send or unshield failed (bundler or chain unreachable): it can be tried again' }),
    canRetry: z.boolean().optional().meta({ description: 'A send or unshield of this device whose relay failed: POST /api/privacy/transfers/{id}/retry' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'ShieldedActivity' });

export const historyQuery = z.object({
  entityId: uuid.optional(),
  chain: z.string().min(1).max(64).optional().meta({ description: 'Only this chain (default: all chains)' }),
  kind: z.enum(ACTIVITY_KINDS).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export const historyResponse = z.object({ items: z.array(activitySchema) }).meta({ id: 'ShieldedHistory' });

export const noteSchema = z
  .object({
    id: z.string(),
    chain: z.string(),
    token: z.string(),
    amount: z.string(),
    commitment: z.string(),
    leafIndex: z.number(),
    txHash: z.string(),
    spent: z.boolean(),
    createdAt: z.string(),
  })
  .meta({ id: 'ShieldedNote' });
export const notesQuery = z.object({ entityId: uuid.optional(), chain: chainField, token: tokenField, includeSpent: z.enum(['true', 'false']).default('false') });
export const notesResponse = z.object({ notes: z.array(noteSchema) }).meta({ id: 'ShieldedNotes' });

export const shieldBody = z.object({ entityId: uuid.optional(), token: tokenField, amount: amountField, chain: chainField }).meta({ id: 'ShieldBody' });
export const shieldResponse = z
  .object({ success: z.literal(true), userOpHash: hex32, noteCommitment: hex32, chain: z.string(), token: z.string(), amount: z.string() })
  .meta({ id: 'ShieldResponse' });

export const proveTransferBody = z
  .object({
    entityId: uuid.optional(),
    recipientAddress: z.string().min(1).max(200).meta({ description: "Recipient's shielded address (`bzk1…`)" }),
    token: tokenField,
    amount: amountField,
    chain: chainField,
    purpose: paymentPurpose,
  })
  .meta({ id: 'ProveTransferBody' });

const extDataFields = {
  token: addressString.meta({ description: 'Addition: token of the bundle (zero address = native ETH)' }),
  recipient: addressString.meta({ description: 'Addition: public recipient (zero for a private transfer)' }),
  extAmount: z.string().regex(/^-?[0-9]{1,39}$/).meta({ description: 'Addition: public amount, base units; 0 for a transfer, negative for a withdrawal' }),
  relayer: addressString.meta({ description: "Addition: relayer bound into the proof (this install's relayer account)" }),
  fee: z.string().regex(/^[0-9]{1,39}$/).meta({ description: 'Addition: fee paid to the relayer, base units' }),
  deadline: z.string().regex(/^[0-9]{1,20}$/).meta({ description: 'Addition: unix seconds after which the pool refuses the bundle' }),
};

/** What a bundle carries of the hosted relay's quote it was built on (its relayer, fee and deadline are the bundle's own). */
export const relayQuoteProof = z
  .object({
    expiresAt: z.iso.datetime({ message: 'must be an ISO-8601 time' }),
    signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/, 'must be a 65-byte signature'),
  })
  .meta({ id: 'RelayQuoteProof', description: "Addition: the hosted relay's quote the bundle was built on (its expiry and the relayer's signature)" });

export const proveTransferResponse = z
  .object({
    success: z.literal(true),
    proofId: z.uuid(),
    proof: hex,
    root: hex32,
    nullifierHashes: z.array(hex32),
    newCommitments: z.array(hex32),
    encryptedNotesRecipient: z.array(hex),
    encryptedNotesSender: z.array(hex),
    chain: z.string(),
    ...extDataFields,
    quote: relayQuoteProof.optional(),
  })
  .meta({
    id: 'TransferBundle',
    description:
      'The spec fields plus the external data the proof binds (token, recipient, extAmount, relayer, fee, deadline): the relay needs them to rebuild the transaction, and changing any of them invalidates the proof.',
  });

export const unshieldBody = z
  .object({
    entityId: uuid.optional(),
    token: tokenField,
    amount: amountField,
    recipient: z.string().optional().meta({ description: "Public address; default the entity's smart account" }),
    chain: chainField,
    purpose: paymentPurpose.meta({ description: 'For an unshield to someone else’s address: what it pays (see PaymentPurpose). Ignored for an unshield to our own account (a transfer).' }),
  })
  .meta({ id: 'UnshieldBody' });
export const unshieldResponse = z
  .object({
    success: z.literal(true),
    proofId: z.uuid(),
    userOpHash: hex32,
    chain: z.string(),
    token: z.string(),
    amount: z.string(),
    recipient: addressString.meta({ description: 'Addition: where the funds go' }),
    via: z.enum(['hosted', 'own']).optional().meta({ description: 'Addition: the relay that submitted it' }),
    jobId: z.string().optional().meta({ description: 'Addition (hosted relay): the relay job' }),
    relayer: addressString.optional(),
    fee: z.string().optional().meta({ description: 'Addition: the fee paid to the relayer from the shielded funds (base units)' }),
  })
  .meta({ id: 'UnshieldResponse' });

const MAX_NOTE_HEX = 2 + 2 * 1024;
export const relayBody = z
  .object({
    proof: z.string().regex(/^0x[0-9a-fA-F]{512}$/, 'must be the 256-byte proof as 0x-prefixed hex'),
    root: hex32,
    nullifierHashes: z.array(hex32).length(2),
    newCommitments: z.array(hex32).length(2),
    encryptedNotesRecipient: z.array(hex.max(MAX_NOTE_HEX)).length(2),
    encryptedNotesSender: z.array(hex.max(MAX_NOTE_HEX)).length(2),
    chain: chainField,
    ...extDataFields,
    quote: relayQuoteProof.optional(),
  })
  .meta({ id: 'RelayTransferBody', description: 'The bundle prove-transfer returns, as it returned it.' });
export type RelayPayload = z.output<typeof relayBody>;

export const relayResponse = z
  .object({
    success: z.literal(true),
    userOpHash: hex32,
    replayed: z.boolean().meta({ description: 'true when this bundle (same nullifiers) was relayed before; the first userOpHash is returned' }),
    via: z.enum(['hosted', 'own']).optional().meta({ description: "Addition: who submitted it — the entity's hosted relay (a linked entity's bundle) or this install's relayer" }),
    jobId: z.string().optional().meta({ description: 'Addition (hosted relay): the relay job, for GET /api/privacy/relay-jobs/{jobId}' }),
    relayer: addressString.optional().meta({ description: 'Addition: the relayer account the pool pays the fee to' }),
    fee: z.string().optional().meta({ description: 'Addition: the fee paid to the relayer (base units)' }),
  })
  .meta({ id: 'RelayTransferResponse' });

export const relayChoiceSchema = z
  .object({
    via: z.enum(['hosted', 'own']).meta({ description: "`hosted`: the entity is linked and its hosted instance relays; `own`: this install's relayer" }),
    chain: z.string(),
    token: z.string(),
    relayer: addressString,
    fee: z.string().meta({ description: 'Paid from the shielded funds to the relayer, on top of the amount (base units)' }),
    deadline: z.string(),
    expiresAt: z.string().nullable().meta({ description: "The hosted relay's quote holds until then; null for this install's relayer" }),
  })
  .meta({ id: 'RelayChoice' });
export const relayQuoteQuery = z.object({ entityId: uuid.optional(), chain: chainField, token: tokenField });
export const relayJobParams = z.object({ jobId: z.uuid('must be a relay job id (UUID)') });
export const relayJobResponse = z
  .object({
    id: z.string(),
    chain: z.string(),
    status: z.enum(['submitting', 'submitted', 'confirmed', 'failed']),
    token: z.string(),
    fee: z.string(),
    userOpHash: z.string().nullable(),
    txHash: z.string().nullable(),
    gasCost: z.string().nullable(),
    error: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'RelayJob' });

export const publicAccountsResponse = z
  .object({
    chain: z.string(),
    chainId: z.number().int(),
    nativeSymbol: z.string(),
    account: z.object({ address: z.string(), balance: z.string().nullable().meta({ description: 'Native balance in base units; null when the chain cannot be read now' }) }).meta({ description: "The business's smart account: it pays network fees and holds public funds to shield" }),
    relayer: z.object({ address: z.string(), balance: z.string().nullable() }).meta({ description: "This install's relayer account: it pays gas to submit private transfers" }),
    devnet: z.boolean().meta({ description: 'A local development chain: POST /api/privacy/devnet-fund can fund these accounts' }),
  })
  .meta({ id: 'PrivacyPublicAccounts' });
export const resyncBody = z.object({ entityId: uuid.optional(), chain: chainField }).meta({ id: 'PrivacyResyncBody' });
export const resyncResponse = z
  .object({
    success: z.literal(true),
    chain: z.string(),
    wasReset: z.boolean().meta({ description: 'The chain had been reset: notes from before were dropped, pending transfers failed and the books reverse what the reset undid' }),
    indexedBlock: z.string(),
  })
  .meta({ id: 'PrivacyResyncResponse' });

export const devnetFundBody = z.object({ entityId: uuid.optional(), chain: chainField, target: z.enum(['account', 'relayer']) });
export const devnetFundResponse = z.object({ funded: z.literal(true), target: z.enum(['account', 'relayer']), address: z.string(), amount: z.string(), txHash: z.string(), balance: z.string() }).meta({ id: 'PrivacyDevnetFund' });

const transferKind = z.enum(['send', 'unshield']).meta({ description: '`send`: to a shielded address; `unshield`: to a public address (empty: this business\'s smart account)' });

export const prepareTransferBody = z
  .object({
    entityId: uuid.optional(),
    kind: transferKind,
    chain: chainField,
    token: tokenField,
    amount: amountField,
    recipient: z.string().max(200).optional().meta({ description: 'Shielded address (send) or public address (unshield; omitted: our own smart account)' }),
    purpose: paymentPurpose,
  })
  .meta({ id: 'PrepareTransferBody' });

export const prepareTransferResponse = z
  .object({
    success: z.literal(true),
    preparedId: z.string().meta({ description: 'Names the proof kept on this device for Confirm (the proof itself never leaves the server)' }),
    expiresAt: z.string().meta({ description: 'Confirm after this proves again (the quote or the bundle deadline runs out)' }),
    via: z.enum(['hosted', 'own']),
    relayer: addressString,
    fee: z.string().meta({ description: 'Relay fee paid from the shielded funds, on top of the amount (base units)' }),
  })
  .meta({ id: 'PreparedTransfer' });

export const confirmTransferBody = prepareTransferBody
  .extend({ preparedId: z.string().max(64).optional().meta({ description: 'From prepare: used only if it was proved for exactly this transfer by this entity and has not expired; otherwise the transfer is proved now' }) })
  .meta({ id: 'ConfirmTransferBody' });

export const confirmTransferResponse = z
  .object({
    success: z.literal(true),
    activityId: z.string(),
    proofId: z.string(),
    userOpHash: hex32,
    chain: z.string(),
    via: z.enum(['hosted', 'own']),
    jobId: z.string().optional(),
    relayer: addressString,
    fee: z.string(),
    usedPrepared: z.boolean().meta({ description: 'True when the prepared proof was relayed' }),
    reproveReason: z.enum(['none', 'unknown', 'changed', 'expired', 'stale', 'failed']).nullable().meta({ description: 'Why it was proved again: no preparedId, an unknown one, the transfer changed, the quote or deadline ran out, the root or notes moved on, proving had failed' }),
  })
  .meta({ id: 'ConfirmedTransfer' });

export const retryParams = z.object({ id: z.string().min(1).max(64) });
export const retryResponse = z
  .object({
    success: z.literal(true),
    activityId: z.string(),
    userOpHash: hex32,
    sameProof: z.boolean().meta({ description: 'True: the same proof was relayed again; false: it was proved again (its root was no longer valid, or its deadline or quote had passed)' }),
    via: z.enum(['hosted', 'own']),
    jobId: z.string().optional(),
  })
  .meta({ id: 'RetriedTransfer' });

const probe = z.object({ ok: z.boolean(), problem: z.string().nullable() });
export const chainHealthResponse = z
  .object({
    chain: z.string(),
    rpc: probe.meta({ description: "The chain's node" }),
    bundler: probe.meta({ description: 'The bundler shields and relays are submitted to' }),
    indexer: z.object({ problem: z.string().nullable(), lastSyncAt: z.string().nullable() }),
    affected: z.array(z.string()).meta({ description: 'What an outage stops, in words (empty when both answer)' }),
  })
  .meta({ id: 'WalletChainHealth' });
