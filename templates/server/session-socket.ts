/** A WebSocket session as handlers see it: JSON out, text in, close, and a ping/pong liveness check. */
import type { WebSocket } from 'ws';

/** The socket a `websocket` handler receives. */
export interface SessionSocket {
  /** True once the socket is closing or closed. */
  readonly closed: boolean;
  /** Bytes queued but not yet sent. */
  readonly bufferedBytes: number;
  /** Sends one text frame with `value` as JSON; resolves to true once written, false if the socket is closed. */
  sendJson(value: unknown): Promise<boolean>;
  /** Receives each message as text (`binary` tells the frame type); messages received before are replayed. */
  onMessage(listener: (text: string, binary: boolean) => void): void;
  /** Calls `listener` once, with the close code and reason, when the socket closes. */
  onClose(listener: (code: number, reason: string) => void): void;
  /** Starts the closing handshake. */
  close(code?: number, reason?: string): void;
  /** The underlying `ws` socket. */
  readonly raw: WebSocket;
}

/** What `createSessionSocket` needs from the runtime. */
export interface SessionSocketConfig {
  /** Milliseconds between pings; a socket that did not answer the previous ping is terminated. */
  readonly pingIntervalMs: number;
  /** Called with each value before it is sent; may throw to refuse it. */
  readonly checkEvent?: (value: unknown) => void;
}

/** Messages kept while no `onMessage` listener exists; beyond this the socket is closed with 1008. */
export const MAX_EARLY_MESSAGES = 100;

/** Wraps an open `ws` socket; listens at once, so no message is lost while the handler sets up. */
export function createSessionSocket(socket: WebSocket, config: SessionSocketConfig): SessionSocket {
  return new WsSessionSocket(socket, config);
}

class WsSessionSocket implements SessionSocket {
  private readonly early: [string, boolean][] = [];
  private messageListener: ((text: string, binary: boolean) => void) | undefined;
  private readonly closeListeners: ((code: number, reason: string) => void)[] = [];
  private closeInfo: [number, string] | undefined;
  private alive = true;
  private readonly pinger: NodeJS.Timeout;

  constructor(
    readonly raw: WebSocket,
    private readonly config: SessionSocketConfig,
  ) {
    raw.on('message', (data, binary) => this.receive(String(data), binary));
    raw.on('pong', () => {
      this.alive = true;
    });
    raw.on('error', () => raw.terminate());
    raw.once('close', (code, reason) => this.closedWith(code, reason.toString()));
    this.pinger = setInterval(() => this.ping(), config.pingIntervalMs);
    this.pinger.unref();
  }

  get closed(): boolean {
    return this.raw.readyState !== this.raw.OPEN;
  }

  get bufferedBytes(): number {
    return this.raw.bufferedAmount;
  }

  sendJson(value: unknown): Promise<boolean> {
    this.config.checkEvent?.(value);
    const text = JSON.stringify(value);
    if (text === undefined) throw new TypeError('WebSocket message must be JSON-serialisable');
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => this.raw.send(text, (error) => resolve(error === undefined || error === null)));
  }

  onMessage(listener: (text: string, binary: boolean) => void): void {
    this.messageListener = listener;
    for (const [text, binary] of this.early.splice(0)) listener(text, binary);
  }

  onClose(listener: (code: number, reason: string) => void): void {
    if (this.closeInfo !== undefined) listener(...this.closeInfo);
    else this.closeListeners.push(listener);
  }

  close(code = 1000, reason = ''): void {
    this.raw.close(code, reason);
  }

  private receive(text: string, binary: boolean): void {
    if (this.messageListener !== undefined) {
      this.messageListener(text, binary);
    } else if (this.early.length < MAX_EARLY_MESSAGES) {
      this.early.push([text, binary]);
    } else {
      this.close(1008, 'too many messages before the session was ready');
    }
  }

  private ping(): void {
    if (!this.alive) {
      this.raw.terminate();
      return;
    }
    this.alive = false;
    this.raw.ping();
  }

  private closedWith(code: number, reason: string): void {
    clearInterval(this.pinger);
    this.closeInfo = [code, reason];
    for (const listener of this.closeListeners.splice(0)) listener(code, reason);
  }
}
