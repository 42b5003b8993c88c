/** A real `ws` WebSocketServer behind node:http that plays the session endpoint: auth, replay, resume, replies. */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { envelope, type TestEvent } from './events.js';
import { startHttpServer, type TestServer } from './http-server.js';

/** One accepted connection as the server saw it. */
export interface SessionConnection {
  readonly socket: WebSocket;
  readonly url: URL;
  readonly headers: IncomingMessage['headers'];
  /** The text frames the client sent on this connection. */
  readonly received: string[];
  /** The close code, once the connection has closed (1000 when the client closed it normally). */
  closeCode: number | undefined;
}

/** Behaviour of the test session server. */
export interface SessionServerOptions {
  /** The history replayed on connect (after `last_event_id` when given). */
  history?: TestEvent[];
  /** Refuse the handshake with this status and `Error` body. */
  refuse?: (url: URL, headers: IncomingMessage['headers']) => { status: number; body: unknown } | undefined;
  /** On a resume, also replay this many events the client already has (it must skip them). */
  overlap?: number;
}

/** The running session server: its base URL, its log of events, and every connection it accepted. */
export interface SessionServer extends TestServer {
  readonly log: TestEvent[];
  readonly connections: SessionConnection[];
  /** Appends an event to the log and sends it to every open connection. */
  publish(payload: TestEvent['payload']): TestEvent;
}

/** Starts the session server on 127.0.0.1:0. */
export async function startSessionServer(options: SessionServerOptions = {}): Promise<SessionServer> {
  const log: TestEvent[] = [...(options.history ?? [])];
  const connections: SessionConnection[] = [];
  const wss = new WebSocketServer({ noServer: true });
  const http = await startHttpServer((_req, res) => {
    res.writeHead(404).end();
  });

  const publish = (payload: TestEvent['payload']): TestEvent => {
    const event = envelope(log.length, payload);
    log.push(event);
    for (const connection of connections) {
      if (connection.socket.readyState === connection.socket.OPEN) connection.socket.send(JSON.stringify(event));
    }
    return event;
  };

  /** The scripted agent: echoes a user message as received + two deltas + completed; ends on request. */
  const reply = (text: string) => {
    const frame = JSON.parse(text) as { payload: { type: string; text?: string } };
    if (frame.payload.type === 'user.message.send') {
      const said = frame.payload.text ?? '';
      publish({ type: 'user.message.received', text: said });
      publish({ type: 'agent.message.delta', text_delta: 'You said: ', generation_id: `gen_${log.length}` });
      const generation = `gen_${log.length - 1}`;
      publish({ type: 'agent.message.delta', text_delta: said, generation_id: generation });
      publish({ type: 'agent.message.completed', text: `You said: ${said}`, generation_id: generation });
    } else if (frame.payload.type === 'conversation.end') {
      publish({ type: 'conversation.ended', ended_by: 'customer' });
    }
  };

  http.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const refusal = options.refuse?.(url, req.headers);
    if (refusal) {
      const body = JSON.stringify(refusal.body);
      socket.end(
        `HTTP/1.1 ${refusal.status} Refused\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection: SessionConnection = {
        socket: ws,
        url,
        headers: req.headers,
        received: [],
        closeCode: undefined,
      };
      connections.push(connection);
      ws.on('close', (code) => {
        connection.closeCode = code;
      });
      ws.on('message', (data) => {
        const text = String(data);
        connection.received.push(text);
        reply(text);
      });
      const after = url.searchParams.get('last_event_id');
      const start = after === null ? 0 : log.findIndex((event) => event.id === after) + 1 - (options.overlap ?? 0);
      for (const event of log.slice(Math.max(0, start))) ws.send(JSON.stringify(event));
    });
  });

  return {
    ...http,
    log,
    connections,
    publish,
    close: async () => {
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => wss.close(resolve));
      await http.close();
    },
  };
}
