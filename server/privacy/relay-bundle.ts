// The JSON bundle a client hands to the relay (spec 4.4: proof, root, nullifierHashes,
// newCommitments, encryptedNotesRecipient, encryptedNotesSender, chain) plus the public extData
// fields the relay needs to rebuild the exact `transact` call: token, recipient, extAmount,
// relayer, fee, deadline. Everything is hex or decimal strings; no note plaintext is included.
import { z } from 'zod';
import type { Address, Hex } from 'viem';
import { decodeProof, encodeProof } from './proof.js';
import type { TransactArgs } from './pool-client.js';
import { toHex32 } from './field.js';

const hex = z.string().regex(/^0x[0-9a-fA-F]*$/, 'Expected a 0x-prefixed hex string');
const word = z.string().regex(/^0x[0-9a-fA-F]{1,64}$/, 'Expected a 0x-prefixed hex word');
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'Expected a 0x-prefixed 20-byte address');
const integer = z.string().regex(/^-?\d+$/, 'Expected a decimal integer string');

export const relayBundleSchema = z.object({
  proof: z.string().regex(/^0x[0-9a-fA-F]{512}$/, 'Expected a 256-byte proof'),
  root: word,
  nullifierHashes: z.array(word).length(2),
  newCommitments: z.array(word).length(2),
  encryptedNotesRecipient: z.array(hex).length(2),
  encryptedNotesSender: z.array(hex).length(2),
  chain: z.string().default('base-sepolia'),
  token: address,
  recipient: address,
  extAmount: integer,
  relayer: address,
  fee: z.string().regex(/^\d+$/, 'Expected a non-negative decimal integer string'),
  deadline: z.string().regex(/^\d+$/, 'Expected a non-negative decimal integer string'),
});

export type RelayBundle = z.infer<typeof relayBundleSchema>;

export function toRelayBundle(args: TransactArgs, chain: string): RelayBundle {
  const { proof, extData } = args;
  return {
    proof: encodeProof(proof),
    root: toHex32(proof.root),
    nullifierHashes: proof.inputNullifiers.map(toHex32),
    newCommitments: proof.outputCommitments.map(toHex32),
    encryptedNotesRecipient: [...extData.encryptedNotesRecipient],
    encryptedNotesSender: [...extData.encryptedNotesSender],
    chain,
    token: extData.token,
    recipient: extData.recipient,
    extAmount: extData.extAmount.toString(),
    relayer: extData.relayer,
    fee: extData.fee.toString(),
    deadline: extData.deadline.toString(),
  };
}

/** Validates a bundle (throws a ZodError on bad shape) and rebuilds the `transact` arguments. */
export function parseRelayBundle(input: unknown): { chain: string; args: TransactArgs } {
  const b = relayBundleSchema.parse(input);
  const pair = (xs: string[]) => [BigInt(xs[0]), BigInt(xs[1])] as const;
  const hexPair = (xs: string[]) => [xs[0] as Hex, xs[1] as Hex] as [Hex, Hex];
  const proof = decodeProof(b.proof as Hex);
  return {
    chain: b.chain,
    args: {
      proof: { ...proof, root: BigInt(b.root), inputNullifiers: pair(b.nullifierHashes), outputCommitments: pair(b.newCommitments) },
      extData: {
        token: b.token as Address,
        recipient: b.recipient as Address,
        extAmount: BigInt(b.extAmount),
        relayer: b.relayer as Address,
        fee: BigInt(b.fee),
        deadline: BigInt(b.deadline),
        encryptedNotesRecipient: hexPair(b.encryptedNotesRecipient),
        encryptedNotesSender: hexPair(b.encryptedNotesSender),
      },
    },
  };
}
