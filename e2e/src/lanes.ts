// The journeys run in lanes, one per Vitest worker (maxWorkers in e2e/vitest.config.ts). Global setup gives
// each lane its own server and its own Chromium; a lane's files run one after another, so a journey that
// changes the server's settings (the operator's AI key, the admin's language…) never races a file of
// another lane. VITEST_POOL_ID numbers the worker slots 1..maxWorkers, and two files never hold one at once.
import { inject } from 'vitest';

export interface Lane {
  /** The lane's server, e.g. http://127.0.0.1:43123. */
  baseUrl: string;
  /** The lane's Chromium (playwright's browser server), for chromium.connect. */
  browserWsEndpoint: string;
}

/** The lane of the worker running this file. */
export function currentLane(): Lane {
  const lanes = inject('lanes');
  const slot = Number(process.env.VITEST_POOL_ID ?? '1');
  const lane = lanes[slot - 1];
  if (!lane) throw new Error(`no journeys lane for VITEST_POOL_ID=${slot}: global setup started ${lanes.length}`);
  return lane;
}
