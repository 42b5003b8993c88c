/**
 * A session whose code (`websocket.ts`, the socket handling) and validators load with a dynamic `import()` when it
 * opens, so that a page that never opens one does not download them. It works at once: `on`, `send` and `close`
 * made while loading are passed on in order when the session has loaded.
 */
import type { Validator } from '../shared/validation.js';
import { CasiError, checkTextLength, DEFAULT_MAX_TEXT_LENGTH } from './errors.js';
import type { EventOfType, Session, SessionOptions, SessionState, TypedEvent } from './websocket.js';

/** The validators of a session's server and client events. */
export interface EventValidators<ServerE, ClientE> {
  readonly server: Validator<ServerE>;
  readonly client: Validator<ClientE>;
}

/** Options of `openLazySession`: those of `openSession`, and the validators to load. */
export interface LazySessionOptions<ServerE extends TypedEvent, ClientE extends TypedEvent>
  extends SessionOptions<ServerE, ClientE> {
  /** Loads both validators (unless `validate` is false); they replace `serverValidator` and `clientValidator`. */
  loadValidators?: (() => Promise<EventValidators<ServerE, ClientE>>) | undefined;
}

/**
 * Opens a session like `openSession`; connecting starts once its code has loaded. A `send` made before then is
 * checked for length at once and validated when the validators arrive: an invalid one fails the session (`ready` and
 * `closed` reject with the `ValidationError`) and nothing is sent.
 */
export function openLazySession<ServerE extends TypedEvent, ClientE extends TypedEvent>(
  options: LazySessionOptions<ServerE, ClientE>,
): Session<ServerE, ClientE> {
  return new LazySession(options, load(options));
}

async function load<ServerE extends TypedEvent, ClientE extends TypedEvent>(
  options: LazySessionOptions<ServerE, ClientE>,
): Promise<Session<ServerE, ClientE>> {
  const { loadValidators, ...rest } = options;
  const [{ openSession }, validators] = await Promise.all([
    import('./websocket.js'),
    options.validate === false ? undefined : loadValidators?.(),
  ]).catch((cause: unknown) => {
    throw new CasiError('The session code could not be loaded.', { cause });
  });
  return openSession(
    validators === undefined
      ? rest
      : { ...rest, serverValidator: validators.server, clientValidator: validators.client },
  );
}

class LazySession<ServerE extends TypedEvent, ClientE extends TypedEvent> implements Session<ServerE, ClientE> {
  readonly ready: Promise<void>;
  readonly closed: Promise<void>;
  readonly #options: LazySessionOptions<ServerE, ClientE>;
  readonly #loaded: Promise<Session<ServerE, ClientE>>;
  /** Calls made before the session loaded, replayed on it in order. */
  readonly #calls: ((session: Session<ServerE, ClientE>) => void)[] = [];
  #session: Session<ServerE, ClientE> | undefined;
  #closed = false;

  constructor(options: LazySessionOptions<ServerE, ClientE>, loading: Promise<Session<ServerE, ClientE>>) {
    this.#options = options;
    this.#loaded = loading.then((session) => {
      try {
        for (const call of this.#calls) call(session);
      } catch (error) {
        session.close();
        throw error;
      } finally {
        this.#calls.length = 0;
      }
      this.#session = session;
      return session;
    });
    this.#loaded.catch(() => {
      this.#closed = true;
    });
    this.ready = this.#loaded.then((session) => session.ready);
    this.closed = this.#loaded.then((session) => session.closed);
    this.ready.catch(() => {});
    this.closed.catch(() => {});
  }

  get state(): SessionState {
    return this.#session?.state ?? (this.#closed ? 'closed' : 'connecting');
  }

  get lastEventId(): string | undefined {
    return this.#session ? this.#session.lastEventId : this.#options.lastEventId;
  }

  send(event: ClientE): void {
    if (this.#session) {
      this.#session.send(event);
      return;
    }
    if (this.#closed) throw new CasiError('The session is closed.');
    checkTextLength(event, this.#options.maxTextLength ?? DEFAULT_MAX_TEXT_LENGTH);
    this.#calls.push((session) => session.send(event));
  }

  on<T extends ServerE['payload']['type']>(type: T, handler: (event: EventOfType<ServerE, T>) => void): () => void {
    if (this.#session) return this.#session.on(type, handler);
    let off: (() => void) | undefined;
    let removed = false;
    this.#calls.push((session) => {
      if (!removed) off = session.on(type, handler);
    });
    return () => {
      removed = true;
      off?.();
    };
  }

  close(): void {
    if (this.#session) {
      this.#session.close();
      return;
    }
    this.#closed = true;
    this.#calls.push((session) => session.close());
  }

  [Symbol.asyncIterator](): AsyncIterator<ServerE> {
    if (this.#session) return this.#session[Symbol.asyncIterator]();
    let events: AsyncIterator<ServerE> | undefined;
    const open = async () => {
      events ??= (await this.#loaded)[Symbol.asyncIterator]();
      return events;
    };
    return {
      next: () => (events ? events.next() : open().then((opened) => opened.next())),
      return: async () => (await open()).return?.() ?? { value: undefined, done: true },
    };
  }
}
