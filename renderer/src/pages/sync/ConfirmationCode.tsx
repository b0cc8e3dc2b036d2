import { useState } from 'react';
import { Notice, TextInput } from '../../ui/components';
import { isConfirmationSent } from './sync-api';
import type { ConfirmationSent } from './types';

/**
 * The hosted instance confirms a new account's address before it links or joins (202): the form
 * shows one more field for the mailed code and sends the same request again with it.
 */
export function useConfirmation() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [code, setCode] = useState('');
  return {
    sentTo,
    /** What to add to the request: the code, once one was asked for. */
    body: () => (sentTo && code.trim() ? { confirmationCode: code.trim() } : {}),
    /** True (and the field shown) when the answer asks for a code. */
    asked(answer: unknown): answer is ConfirmationSent {
      if (!isConfirmationSent(answer)) return false;
      setSentTo(answer.email);
      setCode('');
      return true;
    },
    /** The credentials changed: the code asked for no longer applies (the next request asks again). */
    reset: () => (setSentTo(null), setCode('')),
    field: sentTo ? (
      <>
        <Notice>
          <span>
            We sent a code to <strong>{sentTo}</strong>. Enter it to confirm the address (it works once, for 30 minutes). No code? Check the address and password, then send again.
          </span>
        </Notice>
        <TextInput label="Confirmation code" autoComplete="one-time-code" autoCapitalize="characters" spellCheck={false} placeholder="XXXX-XXXX" value={code} onChange={(e) => setCode(e.target.value)} autoFocus />
      </>
    ) : null,
  };
}
