// Fixed-window rate limits per second and per minute, keyed by token or, without one, by address.
import type { ServiceOperation } from '../../shared/service/index';
import type { ApiKey } from './auth';
import { HttpError } from './http';

interface Window {
  start: number;
  count: number;
}

export interface Limits {
  perSecond: number;
  perMinute: number;
}

export class RateLimiter {
  private readonly seconds = new Map<string, Window>();
  private readonly minutes = new Map<string, Window>();

  constructor(
    private readonly anonymous: Limits,
    private readonly keyed: Limits,
    private readonly now: () => number = Date.now,
  ) {}

  private hit(map: Map<string, Window>, id: string, size: number, t: number): Window {
    let w = map.get(id);
    const start = Math.floor(t / size) * size;
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      map.set(id, w);
      if (map.size > 10000) for (const [k, v] of map) if (v.start < start) map.delete(k);
    }
    w.count++;
    return w;
  }

  /** Counts the request; returns headers to add; throws 429 past a limit. */
  check(op: ServiceOperation, key: ApiKey | undefined, address: string): Record<string, string> {
    if (!key && op.rateLimit === 'uncapped') return {};
    const limits = key ? this.keyed : this.anonymous;
    const id = key ? `k:${key.token}` : `a:${address}`;
    const t = this.now();
    const s = this.hit(this.seconds, id, 1000, t);
    const m = this.hit(this.minutes, id, 60000, t);
    const secondLeft = Math.max(0, limits.perSecond - s.count);
    const minuteLeft = Math.max(0, limits.perMinute - m.count);
    const resetSecond = Math.max(1, Math.ceil((s.start + 1000 - t) / 1000));
    const resetMinute = Math.max(1, Math.ceil((m.start + 60000 - t) / 1000));
    const headers: Record<string, string> = {
      'X-RateLimit-Limit-Second': String(limits.perSecond),
      'X-RateLimit-Remaining-Second': String(secondLeft),
      'X-RateLimit-Limit-Minute': String(limits.perMinute),
      'X-RateLimit-Remaining-Minute': String(minuteLeft),
      'RateLimit-Limit': String(limits.perMinute),
      'RateLimit-Remaining': String(minuteLeft),
      'RateLimit-Reset': String(resetMinute),
    };
    if (m.count > limits.perMinute) {
      throw new HttpError(
        429,
        `Rate limit exceeded: ${limits.perMinute} requests per minute${key ? ' for this token' : ' without a token; use an API key for higher limits'}`,
        { ...headers, 'Retry-After': String(resetMinute) },
      );
    }
    if (s.count > limits.perSecond) {
      throw new HttpError(
        429,
        `Rate limit exceeded: ${limits.perSecond} requests per second${key ? ' for this token' : ' without a token; use an API key for higher limits'}`,
        { ...headers, 'Retry-After': String(resetSecond) },
      );
    }
    return headers;
  }
}
