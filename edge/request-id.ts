// Request ids: a random tag per process and a counter, unique across replicas and cheap to make.
// An id is kept as its counter and becomes text only when something reads it (a log line): the
// X-Request-Id header gets its bytes, written into one buffer, where a string cost uWS a UTF-8
// copy and the counter a toString(36) and a concatenation on every answer.
import { randomBytes } from 'node:crypto';

/** The client's own id (a plain token), or this process's counter. */
export type RequestId = string | number;

const PROCESS_TAG = randomBytes(6).toString('hex');
/** Base-36 digits of the counter, fixed width: 36^10 ids (3.7 × 10^15) before the counter wraps. */
const DIGITS = 10;
const WRAP = 36 ** DIGITS;
const ALPHABET = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz', 'latin1');
const [ZERO, NINE, A, Z] = [ALPHABET[0]!, ALPHABET[9]!, ALPHABET[10]!, ALPHABET[35]!];
/** Rewritten for each id: uWS copies a header value when it is written. */
const scratch = Buffer.from(`${PROCESS_TAG}-${'0'.repeat(DIGITS)}`, 'latin1');
let sequence = 0;

const nextRequestId = (): RequestId => (sequence = (sequence + 1) % WRAP);

/** The client's X-Request-Id when it is a plain token of at most 64 characters, else a new id. */
export function requestIdOf(given: string | undefined): RequestId {
  return given && /^[A-Za-z0-9._-]{1,64}$/.test(given) ? given : nextRequestId();
}

/** The counter whose digits `scratch` holds. */
let written = 0;

/**
 * The id for the header: the client's string, or this process's bytes, valid until the next call.
 * An answer written in its request's callback follows the one before: its digits are the last
 * ones counted up by one, most often in the last place.
 */
export function requestIdValue(id: RequestId): string | Buffer {
  if (typeof id === 'string') return id;
  if (id === written) return scratch;
  if (id === written + 1) {
    let i = scratch.length - 1;
    while (scratch[i] === Z) scratch[i--] = ZERO;
    scratch[i] = scratch[i] === NINE ? A : scratch[i]! + 1;
  } else {
    let rest = id;
    for (let i = scratch.length - 1; i >= scratch.length - DIGITS; i--) {
      scratch[i] = ALPHABET[rest % 36]!;
      rest = Math.floor(rest / 36);
    }
  }
  written = id;
  return scratch;
}

export const requestIdText = (id: RequestId): string => (typeof id === 'string' ? id : (requestIdValue(id) as Buffer).toString('latin1'));
