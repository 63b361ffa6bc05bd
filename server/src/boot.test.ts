// logRedisOutages: a Redis that goes away and comes back is reported once each way, not on every retry.
// A TCP relay in front of the real Redis plays the outage; needs REDIS_URL.
import net from 'node:net';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { logRedisOutages } from './boot';

const REDIS_URL = process.env.REDIS_URL;

/** A relay to Redis that can be switched off (listening socket and open connections closed) and on. */
function redisRelay(target: URL) {
  const open = new Set<net.Socket>();
  let server: net.Server | null = null;
  let port = 0;
  const start = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port || 6379), target.hostname);
        for (const socket of [client, upstream]) {
          open.add(socket);
          socket.on('error', () => socket.destroy());
          socket.on('close', () => open.delete(socket));
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of open) socket.destroy();
      if (!server) return resolve();
      server.close(() => resolve());
      server = null;
    });
  return { start, stop, port: () => port };
}

const until = async (condition: () => boolean, timeoutMs = 5_000) => {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe.skipIf(!REDIS_URL)('logRedisOutages (needs REDIS_URL)', () => {
  let client: Redis | undefined;
  afterEach(() => client?.disconnect());

  it('logs once when the connection is lost, however often reconnecting fails, and once when it is back', async () => {
    const relay = redisRelay(new URL(REDIS_URL!));
    await relay.start();
    const errors: string[] = [];
    const warnings: string[] = [];
    client = new Redis({ host: '127.0.0.1', port: relay.port(), retryStrategy: () => 20, maxRetriesPerRequest: 1 });
    let failures = 0;
    client.on('error', () => failures++);
    logRedisOutages(client, 'Redis', { error: (line: string) => errors.push(line), warn: (line: string) => warnings.push(line) });
    await until(() => client!.status === 'ready');
    expect(errors).toEqual([]);

    await relay.stop();
    await until(() => failures >= 3);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^Redis: .*retrying until it is back/);
    expect(warnings).toEqual([]);

    await relay.start();
    await until(() => warnings.length === 1);
    expect(warnings).toEqual(['Redis: connection restored']);
    expect(errors).toHaveLength(1);

    // A second outage is a second line.
    await relay.stop();
    await until(() => errors.length === 2);
    await relay.start();
    await until(() => warnings.length === 2);
    await relay.stop();
  });
});
