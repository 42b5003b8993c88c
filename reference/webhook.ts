/**
 * The `conversation.setup` webhook (DECISIONS.md): a signed POST of the event to `CASI_WEBHOOK_URL`; any 2xx
 * acknowledges; otherwise, or after 5 s without an answer, it is retried up to 3 times, after 1, 2 and 4 s.
 */
import { createHmac } from 'node:crypto';
import type { ServerEvent } from '../generated/src/types.gen.js';
import type { EventBus } from './bus/types.js';
import type { Clock } from './clock.js';
import type { WebhookConfig } from './config.js';
import type { ErrorReporter, TimerGroup } from './timers.js';

/** The `Service-Version` the webhook is sent with. */
export const WEBHOOK_SERVICE_VERSION = '2025-06-19';
/** Milliseconds to wait for an answer. */
export const WEBHOOK_TIMEOUT_MS = 5000;
/** Delays before each retry, in milliseconds. */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000];

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export function webhookSignature(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** The prefix of the names of webhook attempts' timers: `webhook:<conversation id>/<event id>/<attempt>`. */
export const WEBHOOK_TIMER = 'webhook:';

/** What names a webhook's event: it is found again in its conversation's log. */
type EventRef = Pick<ServerEvent, 'conversation_id' | 'id'>;

/** The name of the timer of attempt `attempt` (0 for the first, 1 for the first retry) of the webhook of `event`. */
export function webhookTimer(event: EventRef, attempt: number): string {
  return `${WEBHOOK_TIMER}${event.conversation_id}/${event.id}/${attempt}`;
}

/**
 * Sends setup webhooks with retries on the service clock. Each attempt is a timer named after the event and the
 * attempt, which finds the event again in the conversation's log: kept as a row with a database, it survives a
 * restart, and a process killed while it posts leaves it to be run again.
 */
export class WebhookSender {
  constructor(
    private readonly config: WebhookConfig,
    private readonly clock: Clock,
    private readonly timers: TimerGroup,
    private readonly bus: Pick<EventBus, 'read'>,
    private readonly onError: ErrorReporter,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /**
   * Starts delivering `event`. Its first attempt is a timer due now, kept as a row with a database like the retries,
   * so that a process killed during it tries again: `written` resolves once that row is written, `delivered` once
   * the attempt is over (true when it was acknowledged).
   */
  send(event: ServerEvent): { written: Promise<void>; delivered: Promise<boolean> } {
    let delivered = false;
    const { written, done } = this.timers.start(webhookTimer(event, 0), async () => {
      delivered = await this.attempt(event, 0);
    });
    return { written, delivered: done.then(() => delivered) };
  }

  /** What the attempt's timer `name` runs (a row found after a restart); undefined when the name is no attempt's. */
  resumable(name: string): (() => Promise<void>) | undefined {
    const match = /^webhook:([^/]+)\/([^/]+)\/(\d+)$/.exec(name);
    if (match === null) return undefined;
    const [, conversationId = '', id = '', attempt = ''] = match;
    return async () => {
      await this.attempt({ conversation_id: conversationId, id }, Number(attempt));
    };
  }

  /** Sets the timer of the retry that follows attempt `attempt` (0 for the first), unless none is left. */
  private async retryLater(event: EventRef, attempt: number): Promise<void> {
    const delay = WEBHOOK_RETRY_DELAYS_MS[attempt];
    if (delay === undefined) {
      this.onError(new Error(`webhook ${event.id} not acknowledged after ${attempt + 1} attempts`), 'webhook');
      return;
    }
    await this.timers.set(webhookTimer(event, attempt + 1), delay, async () => {
      await this.attempt(event, attempt + 1);
    });
  }

  /**
   * Attempt `attempt` (0 for the first): the event found again in its conversation's log, posted, and the next retry
   * set if it fails; true when it was acknowledged.
   */
  private async attempt(event: EventRef, attempt: number): Promise<boolean> {
    const found = (await this.bus.read(event.conversation_id))?.find((logged) => logged.id === event.id);
    if (found === undefined) {
      this.onError(new Error(`webhook ${event.id}: the event is no longer kept`), 'webhook');
      return false;
    }
    if (await this.post(JSON.stringify(found))) return true;
    await this.retryLater(event, attempt);
    return false;
  }

  /** One POST; true for a 2xx answer within the timeout. */
  private async post(body: string): Promise<boolean> {
    const controller = new AbortController();
    const timeout = this.clock.setTimer(WEBHOOK_TIMEOUT_MS, () => controller.abort());
    try {
      const response = await this.fetchImpl(this.config.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'service-version': WEBHOOK_SERVICE_VERSION,
          'casi-signature': webhookSignature(this.config.secret, Math.floor(this.clock.now() / 1000), body),
        },
        body,
        signal: controller.signal,
      });
      await response.body?.cancel();
      return response.status >= 200 && response.status < 300;
    } catch {
      return false;
    } finally {
      timeout.cancel();
    }
  }
}
