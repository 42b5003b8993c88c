/** A TCP proxy on 127.0.0.1 that can turn its open connections into black holes: bytes vanish, nothing closes. */

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

/** The running proxy: its base URL, the connections it forwarded, and the switch that silences them. */
export interface TcpProxy {
  readonly url: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  /** From now on the open connections forward nothing either way, and stay open (later ones work normally). */
  blackHole(): void;
  close(): Promise<void>;
}

/** Starts a proxy in front of `target` (`http://host:port`). */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<{ client: Socket; upstream: Socket; silent: boolean }>();
  let accepted = 0;
  const server = createServer((client) => {
    accepted++;
    const upstream = connect(Number(port), hostname);
    const pair = { client, upstream, silent: false };
    open.add(pair);
    client.on('data', (data) => {
      if (!pair.silent) upstream.write(data);
    });
    upstream.on('data', (data) => {
      if (!pair.silent) client.write(data);
    });
    const drop = () => {
      open.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      socket.on('error', drop);
      socket.on('close', drop);
      // A silenced connection must not end either: a FIN would tell the other side.
      socket.on('end', () => {
        if (!pair.silent) drop();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    get accepted() {
      return accepted;
    },
    blackHole() {
      for (const pair of open) pair.silent = true;
    },
    close: async () => {
      for (const pair of open) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
