// Client addresses for the journeys' visitors.
let visitors = 0;
/**
 * A distinct client address per browser context or API helper call. The server trusts X-Forwarded-For
 * (it runs behind proxies) and limits sign-ups and recoveries per address; journeys play different
 * visitors, so they must not share one visitor's limit. The limits themselves are covered by API tests.
 */
export function visitorAddress(): string {
  visitors += 1;
  return `10.${process.pid % 250}.${Math.floor(visitors / 250) % 250}.${(visitors % 250) + 1}`;
}
