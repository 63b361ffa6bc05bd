// Shared by the emulators' tests: a webhook receiver that records the raw bodies and headers it gets.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** An HTTP server at `path` that records deliveries; `answer` picks each reply's status (default 200). */
export async function startWebhookReceiver<Event>(path: string, answer: (received: Received, index: number) => number = () => 200) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(entry);
      res.writeHead(answer(entry, received.length - 1)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    /** Parsed events in arrival order. */
    events: () => received.map((r) => JSON.parse(r.body) as Event),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
