/**
 * Request bodies while they arrive: a body must come within a total deadline and without an idle gap longer than
 * allowed (else 408 `request_timeout`), and all unfinished bodies together may hold only so many bytes (else 503
 * `service_unavailable`), so that slow uploads cannot hold connections or memory for as long as they like.
 */
import { PassThrough, type Readable } from 'node:stream';
import { HttpError } from './errors.js';

/** The limits `BodyGuard` enforces. */
export interface BodyLimits {
  /** Milliseconds from the first read to the last byte of a body. */
  readonly totalMs: number;
  /** Longest gap without a byte, in milliseconds. */
  readonly idleMs: number;
  /** Bytes that all bodies still arriving may hold together. */
  readonly maxPendingBytes: number;
}

/** Watches every body of an instance; `pending` is what unfinished bodies hold now. */
export class BodyGuard {
  private held = 0;

  constructor(private readonly limits: BodyLimits) {}

  get pending(): number {
    return this.held;
  }

  /**
   * The body stream to parse instead of `payload`: the same bytes, or an `HttpError` when a limit is broken. The
   * request is not consumed further then; its answer closes the connection.
   */
  watch(payload: Readable): Readable {
    const out = new PassThrough();
    // The body parser listens for the error it reports; a body nobody reads (a route that takes none) must not
    // turn it into an uncaught one.
    out.on('error', () => undefined);
    let mine = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(total);
      clearTimeout(idle);
      this.held -= mine;
      mine = 0;
    };
    const fail = (error: HttpError) => {
      if (done) return;
      finish();
      payload.unpipe(out);
      payload.pause();
      out.destroy(error);
    };
    const timeout = (what: string) =>
      new HttpError(408, 'request_timeout', `The request body ${what}.`, {
        transient: true,
        headers: { connection: 'close' },
      });
    const total = setTimeout(() => fail(timeout(`took longer than ${this.limits.totalMs} ms`)), this.limits.totalMs);
    const idle = setTimeout(() => fail(timeout(`stopped for ${this.limits.idleMs} ms`)), this.limits.idleMs);
    payload.on('data', (chunk: Buffer) => {
      if (done) return;
      idle.refresh();
      mine += chunk.length;
      this.held += chunk.length;
      if (this.held > this.limits.maxPendingBytes) {
        fail(
          new HttpError(503, 'service_unavailable', 'Too many request bodies are arriving at once; retry later.', {
            transient: true,
            headers: { 'retry-after': '1', connection: 'close' },
          }),
        );
      }
    });
    payload.once('end', finish);
    payload.once('close', finish);
    payload.once('error', (error) => {
      finish();
      out.destroy(error);
    });
    payload.pipe(out);
    return out;
  }
}
