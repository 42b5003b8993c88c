/** Identifiers and tokens: a type prefix and random base62 characters from the platform's CSPRNG. */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The largest byte value below a multiple of 62, so that `byte % 62` is uniform. */
const UNBIASED_LIMIT = 248;

/** The prefix of each kind of identifier the emulator issues. */
export type IdPrefix = 'ca' | 'pa' | 'conv' | 'cus' | 'ev' | 'proc' | 'gen' | 'call';

/** Random characters of the id after its prefix (about 83 bits). */
export const ID_RANDOM_LENGTH = 14;
/** Random characters of a conversation token after `ct_` (about 256 bits). */
export const TOKEN_RANDOM_LENGTH = 43;

/** `length` uniformly random base62 characters. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < UNBIASED_LIMIT) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** A new identifier such as `conv_7Qk2Lm9XaB3dEf`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBase62(ID_RANDOM_LENGTH)}`;
}

/** A new unguessable conversation token, `ct_…`. */
export function newToken(): string {
  return `ct_${randomBase62(TOKEN_RANDOM_LENGTH)}`;
}
