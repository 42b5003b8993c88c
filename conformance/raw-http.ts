/** Raw HTTP/1.1 over a TCP socket: requests no client library would send, and their answers as the server wrote them. */
import net from 'node:net';

/** An answer read off the socket: status, lower-cased headers, and the body text. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** The body as JSON, or undefined. */
  readonly json: unknown;
  /** Milliseconds from the first byte written to the socket's close. */
  readonly elapsedMs: number;
}

/** The port of a base URL. */
export function portOf(baseUrl: string): number {
  return Number(new URL(baseUrl).port);
}

/**
 * Writes `parts` (strings written `gapMs` apart) and reads until the server closes the connection or `timeoutMs`
 * passes (then the answer so far, status 0 if none). Stops writing once the server has answered.
 */
export function exchange(
  port: number,
  parts: readonly string[] | string,
  options: { gapMs?: number; timeoutMs?: number } = {},
): Promise<RawAnswer> {
  const chunks = typeof parts === 'string' ? [parts] : parts;
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(deadline);
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(text, Date.now() - started));
    };
    const deadline = setTimeout(done, options.timeoutMs ?? 5000);
    socket.on('data', (data) => {
      text += data.toString('latin1');
    });
    socket.on('close', done);
    socket.on('error', () => undefined);
    let next = 0;
    const write = () => {
      if (socket.destroyed || text !== '' || next >= chunks.length) return;
      socket.write(chunks[next++] ?? '');
      timer = setTimeout(write, options.gapMs ?? 0);
    };
    socket.on('connect', write);
  });
}

function parse(text: string, elapsedMs: number): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const body = end === -1 ? '' : text.slice(end + 4);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body, json, elapsedMs };
}
