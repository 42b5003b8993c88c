/**
 * The `conversation.setup` webhook (DECISIONS.md): a signed POST of the event to `CASI_WEBHOOK_URL`; any 2xx
 * acknowledges; otherwise, or after 5 s without an answer, it is retried up to 3 times, after 1, 2 and 4 s.
 */
import { createHmac } from 'node:crypto';
import type { ServerEvent } from '../generated/src/types.gen.js';
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

/** Sends setup webhooks with retries on the service clock. */
export class WebhookSender {
  constructor(
    private readonly config: WebhookConfig,
    private readonly clock: Clock,
    private readonly timers: TimerGroup,
    private readonly onError: ErrorReporter,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** Starts delivering `event`; resolves once the first attempt is over (true when it was acknowledged). */
  send(event: ServerEvent): Promise<boolean> {
    return this.attempt(event, JSON.stringify(event), 0);
  }

  private async attempt(event: ServerEvent, body: string, attempt: number): Promise<boolean> {
    const delivered = await this.post(body);
    if (delivered) return true;
    const delay = WEBHOOK_RETRY_DELAYS_MS[attempt];
    if (delay === undefined) {
      this.onError(new Error(`webhook ${event.id} not acknowledged after ${attempt + 1} attempts`), 'webhook');
      return false;
    }
    this.timers.set(`webhook:${event.id}`, delay, async () => {
      await this.attempt(event, body, attempt + 1);
    });
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
