// The start-time address checks (server/wallet/address.ts) agree with viem's.
import { randomBytes } from 'node:crypto';
import { getAddress, isAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { checksumAddress, isHexAddress } from '../../server/wallet/address.js';

describe('wallet address checks without viem', () => {
  it('checksum and validity match viem for random addresses in any letter case', () => {
    for (let i = 0; i < 500; i++) {
      const hex = randomBytes(20).toString('hex');
      for (const v of [`0x${hex}`, `0x${hex.toUpperCase()}`, getAddress(`0x${hex}`)]) {
        expect(isHexAddress(v)).toBe(isAddress(v, { strict: false }));
        expect(checksumAddress(v)).toBe(getAddress(v));
      }
    }
  });

  it('rejects what viem rejects', () => {
    for (const v of ['', '0x', '0x12', `0x${'g'.repeat(40)}`, `0x${'a'.repeat(41)}`, `0X${'a'.repeat(40)}`, `${'a'.repeat(40)}`]) {
      expect(isHexAddress(v)).toBe(isAddress(v, { strict: false }));
      expect(() => checksumAddress(v)).toThrow();
    }
  });
});
