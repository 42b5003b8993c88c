/** A real HTTP server on 127.0.0.1 (OS-chosen port) that records webhook deliveries and answers as told. */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One delivery as received. */
export interface Delivery {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A running receiver. */
export interface WebhookReceiver {
  readonly url: string;
  readonly deliveries: Delivery[];
  /** Resolves when `count` deliveries have arrived; rejects after `timeoutMs` of real time. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a receiver whose n-th answer (0-based) is `statusFor(n)`, or no answer at all when it returns null. */
export async function startReceiver(statusFor: (n: number) => number | null): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const status = statusFor(deliveries.length);
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const wake of waiters.splice(0)) wake();
      if (status !== null) res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/casi`,
    deliveries,
    async waitFor(count, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (deliveries.length < count) {
        if (Date.now() > deadline) throw new Error(`only ${deliveries.length} of ${count} deliveries arrived`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
