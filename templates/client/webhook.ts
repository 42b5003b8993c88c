/**
 * Checks the signature of a `conversation.setup` webhook delivery: `Casi-Signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256 of "<t>.<raw body>" with the webhook secret>`, with Web Crypto so that it runs in browsers and Node.
 */
import { CasiError } from './errors.js';

/** The delivery's signature is missing, malformed, wrong or too old; nothing of its body should be trusted. */
export class WebhookVerificationError extends CasiError {
  override readonly name: string = 'WebhookVerificationError';
}

/** The header that carries the signature. */
export const WEBHOOK_SIGNATURE_HEADER = 'Casi-Signature';
/** Default largest age of a delivery, in seconds (older ones may be replays). */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/** Options of `verifyWebhook`. */
export interface VerifyWebhookOptions {
  /** Largest difference between the signature's time and now, in seconds (default 300; `Infinity`: any). */
  toleranceSeconds?: number | undefined;
  /** The current time in ms since the epoch (default `Date.now()`). */
  now?: number | undefined;
}

/** The request headers as a `Headers`, a plain object (Node's `IncomingHttpHeaders`) or pairs. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Checks that `body` (the raw request body, exactly as received) was signed with `secret` within the tolerance and
 * returns it parsed as JSON; throws `WebhookVerificationError` naming the problem otherwise.
 */
export async function verifyWebhook<T = unknown>(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string,
  options: VerifyWebhookOptions = {},
): Promise<T> {
  const header = signatureHeader(headers);
  if (header === undefined) throw new WebhookVerificationError(`The ${WEBHOOK_SIGNATURE_HEADER} header is missing.`);
  const { timestamp, signatures } = parseSignature(header);
  const tolerance = options.toleranceSeconds ?? DEFAULT_WEBHOOK_TOLERANCE_SECONDS;
  const age = Math.abs((options.now ?? Date.now()) / 1000 - timestamp);
  if (age > tolerance) {
    throw new WebhookVerificationError(
      `The ${WEBHOOK_SIGNATURE_HEADER} timestamp ${timestamp} is ${Math.round(age)} s from now; the tolerance is ${tolerance} s.`,
    );
  }
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  const encoder = new TextEncoder();
  const subtle = globalThis.crypto.subtle;
  const key = await subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ]);
  const signed = encoder.encode(`${timestamp}.${text}`);
  for (const signature of signatures) {
    if (await subtle.verify('HMAC', key, signature, signed)) return parseBody<T>(text);
  }
  throw new WebhookVerificationError(`No ${WEBHOOK_SIGNATURE_HEADER} signature matches the body and the secret.`);
}

/** The signature header's value, whatever form the headers come in. */
function signatureHeader(headers: WebhookHeaders): string | undefined {
  if (headers instanceof Headers) return headers.get(WEBHOOK_SIGNATURE_HEADER) ?? undefined;
  const wanted = WEBHOOK_SIGNATURE_HEADER.toLowerCase();
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== wanted || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(',');
  }
  return undefined;
}

/** The `t=` time and each `v1=` signature (as bytes) of a header value. */
function parseSignature(header: string): { timestamp: number; signatures: ArrayBuffer[] } {
  let timestamp: number | undefined;
  const signatures: ArrayBuffer[] = [];
  for (const part of header.split(',')) {
    const [key, value = ''] = part.trim().split('=', 2);
    if (key === 't' && /^\d+$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(hexBytes(value));
  }
  if (timestamp === undefined || signatures.length === 0) {
    throw new WebhookVerificationError(
      `The ${WEBHOOK_SIGNATURE_HEADER} header is not \`t=<unix seconds>,v1=<64 hex digits>\`: ${JSON.stringify(header.slice(0, 120))}.`,
    );
  }
  return { timestamp, signatures };
}

/** The bytes of a string of hex digits. */
function hexBytes(hex: string): ArrayBuffer {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes.buffer as ArrayBuffer;
}

/** The verified body as JSON. */
function parseBody<T>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new WebhookVerificationError('The signed webhook body is not valid JSON.', { cause: error });
  }
}
