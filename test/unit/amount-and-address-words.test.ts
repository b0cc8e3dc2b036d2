// What the wallet's form says about a typed amount or address, and how the books' amounts read.
import { describe, expect, it } from 'vitest';
import { amountProblem } from '../../renderer/src/pages/wallet/format.js';
import { displayDecimal, currencyLabel } from '../../renderer/src/ui/money.js';
import { shieldedAddressProblem, encodeAddress } from '../../server/privacy/address.js';
import { publicAddressProblem } from '../../server/wallet/address.js';

describe('amountProblem', () => {
  it.each([
    ['', 'Enter an amount.'],
    ['abc', 'Use only digits and one decimal point, e.g. 0.25.'],
    ['1e3', 'Write the amount out in full, without an exponent (1000 rather than 1e3).'],
    ['-1', 'An amount cannot be negative.'],
    ['1,5', 'Use a point for decimals (0.25) and no thousands separators.'],
    ['0.1234567890123456789', 'ETH has at most 18 decimals; this amount has 19.'],
    ['0', 'Enter an amount greater than zero.'],
    ['0.000', 'Enter an amount greater than zero.'],
    ['.', 'Use only digits and one decimal point, e.g. 0.25.'],
  ])('%j → %s', (text, message) => expect(amountProblem(text, 18, 'ETH')).toBe(message));

  it('accepts amounts within the token’s decimals', () => {
    for (const ok of ['1', '0.25', '.5', '1.', '0.000000000000000001']) expect(amountProblem(ok, 18, 'ETH')).toBeNull();
    expect(amountProblem('1.5', 0, 'NFT')).toBe('NFT has no decimals: enter a whole number.');
  });
});

describe('addresses', () => {
  const valid = encodeAddress({ pubkey: 12345n, viewingPublicKey: new Uint8Array(32).fill(7) });

  it('a shielded address: typo, length, prefix and characters are each named', () => {
    expect(shieldedAddressProblem(valid)).toBeNull();
    const typo = valid.slice(0, 20) + (valid[20] === 'a' ? 'b' : 'a') + valid.slice(21);
    expect(shieldedAddressProblem(typo)).toBe('This shielded address has a typo: its checksum does not match. Copy it again from the recipient.');
    expect(shieldedAddressProblem(valid.slice(0, -2))).toBe('A shielded address is 140 characters long; this one has 138. Copy it again in full.');
    expect(shieldedAddressProblem('0x1234')).toBe('A shielded address starts with bzk1; this one does not.');
    expect(shieldedAddressProblem(`bzk1${'z'.repeat(136)}`)).toMatch(/only the digits 0–9 and the letters a–f/);
  });

  it('a public address: EIP-55 checksum when the case is mixed', () => {
    const checksummed = '0x52908400098527886E0F7030069857D2E4169EE7';
    expect(publicAddressProblem(checksummed)).toBeNull();
    expect(publicAddressProblem(checksummed.toLowerCase())).toBeNull();
    expect(publicAddressProblem(checksummed.replace('E0F', 'e0F'))).toMatch(/EIP-55 checksum/);
    expect(publicAddressProblem('0x1234')).toMatch(/40 hexadecimal characters/);
    expect(publicAddressProblem(`0x${'0'.repeat(40)}`)).toMatch(/zero address/);
  });
});

describe('amounts in the books', () => {
  it('crypto amounts drop their trailing decimals and the /18; fiat stays as kept', () => {
    expect(currencyLabel('ETH/18')).toBe('ETH');
    expect(displayDecimal('0.250000000000000000', 'ETH/18')).toBe('0.25');
    expect(displayDecimal('1.000000000000000000', 'ETH/18')).toBe('1.00');
    expect(displayDecimal('-0.370000000000000000', 'ETH/18')).toBe('-0.37');
    expect(displayDecimal('0.123456789000000000', 'ETH/18')).toBe('≈0.123456');
    expect(displayDecimal('0.000000000000000001', 'ETH/18')).toBe('<0.000001');
    expect(displayDecimal('1200.00', 'USD')).toBe('1200.00');
  });
});

describe('history rows', () => {
  it('a stored failure reads in plain words, never as raw JSON', async () => {
    const { explainStoredError } = await import('../../renderer/src/pages/wallet/format.js');
    expect(explainStoredError('Bundler rejection: {"reason":"AA21 didn\'t pay prefund"}')).toMatch(/^Your business account has no ETH to pay the network fee/);
    expect(explainStoredError('Bundler rejection: {"reason":"0x"}')).toBe('The bundler refused the operation: 0x');
    // A relayed transfer's gas is the relayer's: the words name the account to fund.
    expect(explainStoredError('Bundler rejection: {"reason":"AA21 didn\'t pay prefund","payer":"relayer"}')).toMatch(/^This business’s relayer has no ETH to pay the network fee.*Relayer address/);
    expect(explainStoredError('Spent nullifier')).toBe('These funds were already spent by another transaction.');
    expect(explainStoredError('Something new')).toBe('Something new');
  });

  it('an answer refused for want of ETH names the relayer when the relayer pays, the business account otherwise', async () => {
    const { explainError } = await import('../../renderer/src/pages/wallet/format.js');
    const { ApiError } = await import('../../renderer/src/api/http.js');
    expect(explainError(new ApiError(502, 'Bundler rejection', { reason: "AA21 didn't pay prefund", payer: 'relayer' }))).toMatch(/^This business’s relayer has no ETH/);
    expect(explainError(new ApiError(502, 'Bundler rejection', { reason: "AA21 didn't pay prefund" }))).toMatch(/^Your business account has no ETH/);
  });

  it('native ETH reads as ETH with its decimals while the chain cannot list tokens', async () => {
    const { tokenInfo } = await import('../../renderer/src/pages/wallet/format.js');
    expect(tokenInfo([], '0x0000000000000000000000000000000000000000')).toEqual({ label: 'ETH', decimals: 18 });
    expect(tokenInfo([], '0x52908400098527886E0F7030069857D2E4169EE7')).toEqual({ label: '0x529084…169EE7', decimals: null });
  });
});
