// Client addresses for the journeys' visitors.
import { randomBytes } from 'node:crypto';

/** Random per test file (each runs in its own process), so files never share a visitor, whatever ran before. */
const prefix = `fd00:${randomBytes(4).toString('hex').replace(/(.{4})(?!$)/g, '$1:')}`;
let visitors = 0;
/**
 * A distinct client address per browser context or API helper call. The server trusts X-Forwarded-For
 * (it runs behind proxies) and limits sign-ups and recoveries per address; journeys play different
 * visitors, so they must not share one visitor's limit. The limits themselves are covered by API tests.
 * @fastify/rate-limit counts an IPv6 client by its /64 (one household or host), so each visitor gets its own
 * /64: a 48-bit prefix per file, the visitor's number in the fourth group.
 */
export function visitorAddress(): string {
  visitors += 1;
  return `${prefix}:${visitors.toString(16)}::1`;
}
