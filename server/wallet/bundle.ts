// The relay payload of a proved transaction: the spec's fields and the external data the proof binds.
import type { ProvedTransaction } from './pool-tx.js';
import type { RelayChoice } from './hosted-relay.js';

export function bundleOf(proved: ProvedTransaction, relay?: RelayChoice) {
  const ext = proved.plan.extData;
  return {
    proof: proved.proofHex,
    root: proved.root,
    nullifierHashes: proved.nullifiers,
    newCommitments: proved.commitments,
    encryptedNotesRecipient: [...ext.encryptedNotesRecipient],
    encryptedNotesSender: [...ext.encryptedNotesSender],
    token: ext.token as string,
    recipient: ext.recipient as string,
    extAmount: ext.extAmount.toString(),
    relayer: ext.relayer as string,
    fee: ext.fee.toString(),
    deadline: ext.deadline.toString(),
    ...(relay?.quote ? { quote: relay.quote } : {}),
  };
}
