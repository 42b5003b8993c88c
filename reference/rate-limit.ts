/** `CASI_RATE_LIMIT`: a token bucket per caller on the service clock; a refusal says how long to wait. */
import type { Clock } from './clock.js';
import { type ServiceError, serviceError } from './errors.js';

interface Bucket {
  tokens: number;
  at: number;
}

/** Buckets kept before idle (full) ones are dropped. */
const PRUNE_ABOVE = 10_000;

/** Allows `perSecond` requests per second per caller, with bursts of up to one second's worth. */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly capacity: number;

  constructor(
    private readonly perSecond: number,
    private readonly clock: Clock,
  ) {
    this.capacity = Math.max(1, perSecond);
  }

  /** Takes one request for `caller`; throws 429 `rate_limited` with `Retry-After` (whole seconds) when none is left. */
  take(caller: string): void {
    const now = this.clock.now();
    const bucket = this.refill(this.buckets.get(caller), now);
    if (bucket.tokens < 1) {
      const seconds = Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
      this.buckets.set(caller, bucket);
      throw this.refusal(seconds);
    }
    bucket.tokens -= 1;
    this.buckets.set(caller, bucket);
    if (this.buckets.size > PRUNE_ABOVE) this.prune(now);
  }

  private refill(bucket: Bucket | undefined, now: number): Bucket {
    if (bucket === undefined) return { tokens: this.capacity, at: now };
    const tokens = Math.min(this.capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    return { tokens, at: now };
  }

  private prune(now: number): void {
    for (const [caller, bucket] of this.buckets) {
      if (this.refill(bucket, now).tokens >= this.capacity) this.buckets.delete(caller);
    }
  }

  private refusal(seconds: number): ServiceError {
    return serviceError('rate_limited', `Too many requests; retry after ${seconds} s.`, undefined, {
      'retry-after': String(seconds),
    });
  }
}
