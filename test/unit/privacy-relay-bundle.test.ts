import { describe, expect, it } from 'vitest';
import { parseRelayBundle, toRelayBundle, type TransactArgs } from '../../server/privacy/index.js';

const args: TransactArgs = {
  proof: {
    a: [1n, 2n],
    b: [[3n, 4n], [5n, 6n]],
    c: [7n, 8n],
    root: 9n,
    inputNullifiers: [10n, 11n],
    outputCommitments: [12n, 13n],
  },
  extData: {
    token: '0x0000000000000000000000000000000000000000',
    recipient: '0x1111111111111111111111111111111111111111',
    extAmount: -500n,
    relayer: '0x2222222222222222222222222222222222222222',
    fee: 5n,
    deadline: 1_900_000_000n,
    encryptedNotesRecipient: ['0xaa', '0xbb'],
    encryptedNotesSender: ['0xcc', '0xdd'],
  },
};

describe('relay bundle', () => {
  it('round-trips through JSON into the same transact arguments', () => {
    const json = JSON.parse(JSON.stringify(toRelayBundle(args, 'local')));
    expect(json.nullifierHashes).toHaveLength(2);
    expect(json.proof).toMatch(/^0x[0-9a-f]{512}$/);
    expect(parseRelayBundle(json)).toEqual({ chain: 'local', args });
  });

  it('rejects malformed bundles', () => {
    const good = toRelayBundle(args, 'local');
    const bad = [
      { ...good, proof: good.proof.slice(0, -2) },
      { ...good, nullifierHashes: [good.nullifierHashes[0]] },
      { ...good, newCommitments: [...good.newCommitments, good.newCommitments[0]] },
      { ...good, root: 'abc' },
      { ...good, recipient: '0x1234' },
      { ...good, fee: '-1' },
      { ...good, encryptedNotesSender: ['zz', '0x'] },
    ];
    for (const b of bad) expect(() => parseRelayBundle(b)).toThrow();
    const { chain: _chain, ...withoutChain } = good;
    expect(parseRelayBundle(withoutChain).chain).toBe('base-sepolia');
  });
});
