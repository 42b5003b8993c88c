/**
 * What a typed REST method returns: a promise of the success body that can also give the answer itself, as
 * openai-node's `APIPromise` does (`withResponse()`, `asResponse()`), so that `await client.x.y()` stays the body.
 */
import type { Answer } from './exchange.js';

/** The success body together with the answer it came in (its body already read). */
export interface WithResponse<T> {
  data: T;
  response: Response;
}

/** Statuses whose answer has no body (a `Response` refuses one). */
const NO_BODY: ReadonlySet<number> = new Set([101, 204, 205, 304]);

/**
 * A promise of `T` (`await` it as any promise) that also resolves to the success answer on request. A `Promise`
 * subclass, as openai-node's: its own settled value is unused, each method reads the call's promise.
 */
export class ApiPromise<T> extends Promise<T> {
  readonly #data: Promise<T>;
  #answer: Answer | undefined;

  /** `run` makes the call, telling `received` the success answer before it resolves. */
  constructor(run: (received: (answer: Answer) => void) => Promise<T>) {
    super((resolve) => resolve(undefined as T));
    this.#data = run((answer) => {
      this.#answer = answer;
    });
  }

  /** Promises made from this one (by `Promise.all`, say) are plain promises. */
  static override get [Symbol.species]() {
    return Promise;
  }

  // biome-ignore lint/suspicious/noThenProperty: a promise of the body, as `Promise` itself is.
  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    // biome-ignore lint/suspicious/noExplicitAny: `Promise`'s own signature, which callers' handlers are typed against.
    onRejected?: ((reason: any) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#data.then(onFulfilled, onRejected);
  }

  override catch<B = never>(
    // biome-ignore lint/suspicious/noExplicitAny: `Promise`'s own signature, which callers' handlers are typed against.
    onRejected?: ((reason: any) => B | PromiseLike<B>) | null,
  ): Promise<T | B> {
    return this.#data.catch(onRejected);
  }

  override finally(onFinally?: (() => void) | null): Promise<T> {
    return this.#data.finally(onFinally);
  }

  /** The body and the `Response` it came in (status, headers, url); rejects as the call does. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#data.then((data) => ({ data, response: (this.#answer as Answer).response }));
  }

  /** The success answer as a `Response` whose body can be read again (status, headers and body as received). */
  asResponse(): Promise<Response> {
    return this.#data.then(() => {
      const { response, text, data } = this.#answer as Answer;
      const body = NO_BODY.has(response.status) ? null : data instanceof Blob ? data : text;
      const init = { status: response.status, statusText: response.statusText, headers: response.headers };
      return new Response(body, init);
    });
  }
}
