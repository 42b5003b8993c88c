/** The open SSE streams and WebSocket sessions of an instance, so that closing the instance can close them. */

/** Something open until it closes, on its own or when told to. */
export interface Closeable {
  close(): void;
  onClose(listener: () => void): void;
}

/** Keeps `item` until it closes. */
export type Track = (item: Closeable) => void;

/** A set of open items: `track` adds one until it closes; `closeAll` closes those still open. */
export function createCloseables(): { track: Track; closeAll(): void } {
  const open = new Set<Closeable>();
  return {
    track(item) {
      open.add(item);
      item.onClose(() => open.delete(item));
    },
    closeAll() {
      for (const item of [...open]) item.close();
    },
  };
}
