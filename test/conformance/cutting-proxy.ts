/**
 * A TCP proxy on loopback that cuts connections: each connection may carry a random number of server-to-client
 * bytes (drawn from a seeded generator) and is then destroyed mid-stream, until a given number of cuts is done.
 * Works under HTTP, SSE and WebSocket alike, since it only sees bytes.
 */
import { type AddressInfo, connect, createServer, type Socket } from 'node:net';

/** What the proxy cuts, and how. */
export interface CuttingProxyOptions {
  /** Where connections go (the server under test). */
  readonly port: number;
  readonly host?: string;
  /** How many connections to cut; later ones pass untouched. */
  readonly cuts: number;
  /** Server-to-client bytes a connection carries before its cut: uniform in [min, max]. */
  readonly minBytes: number;
  readonly maxBytes: number;
  /** Deterministic randomness in [0, 1) (e.g. a seeded generator). */
  readonly random: () => number;
  /** Rewrites server-to-client bytes (same length keeps chunk framing), e.g. a shorter SSE `retry:`. */
  readonly rewrite?: (chunk: Buffer) => Buffer;
}

/** A running proxy. */
export interface CuttingProxy {
  readonly port: number;
  /** Connections cut so far. */
  readonly cutsDone: number;
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

/** Starts the proxy on 127.0.0.1, port chosen by the OS. */
export async function startCuttingProxy(options: CuttingProxyOptions): Promise<CuttingProxy> {
  let cutsDone = 0;
  let connections = 0;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    connections++;
    const upstream = connect({ port: options.port, host: options.host ?? '127.0.0.1' });
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => undefined);
    }
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', closeBoth);
    upstream.on('close', closeBoth);
    client.pipe(upstream);
    let budget = cutsDone < options.cuts ? draw(options) : Number.POSITIVE_INFINITY;
    upstream.on('data', (raw: Buffer) => {
      const chunk = options.rewrite ? options.rewrite(raw) : raw;
      if (chunk.length < budget) {
        budget -= chunk.length;
        if (!client.write(chunk)) upstream.pause();
        return;
      }
      if (cutsDone >= options.cuts) {
        budget = Number.POSITIVE_INFINITY;
        client.write(chunk);
        return;
      }
      cutsDone++;
      client.write(chunk.subarray(0, budget), () => closeBoth());
      upstream.pause();
    });
    client.on('drain', () => upstream.resume());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get cutsDone() {
      return cutsDone;
    },
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function draw(options: CuttingProxyOptions): number {
  return options.minBytes + Math.floor(options.random() * (options.maxBytes - options.minBytes + 1));
}

/** A seeded generator in [0, 1) (mulberry32): the same seed cuts at the same byte counts. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Shortens the SSE `retry: 1000` field to `retry: 0010` (same length, so HTTP chunk sizes stay right): the client
 * then reconnects after ~10 ms instead of ~1 s, and 100 cuts fit in a test's time.
 */
export function fastSseRetry(chunk: Buffer): Buffer {
  const text = chunk.toString('latin1');
  const match = /retry: (\d+)\n/.exec(text);
  if (!match?.[1]) return chunk;
  const short = '10'.padStart(match[1].length, '0').slice(-match[1].length);
  return Buffer.from(text.replace(match[0], `retry: ${short}\n`), 'latin1');
}
