/**
 * The README sections of the AsyncAPI channels that get a client: `connect<Channel>` for a WebSocket channel (its
 * `on(key, …)` and `close()`), `stream<Channel>` for an HTTP stream, under the names the channels module exports.
 */
import type { Ir, IrChannel } from '../../ir/model.js';
import { namesOf } from '../channels/index.js';
import { literal, propertyName } from '../shared/ts.js';

/** The sections, one per channel kind the spec has (its first channel of that kind), as Markdown lines. */
export function channelSections(ir: Ir, pkg: string): string[] {
  const named = namesOf(ir.channels);
  const socket = named.find((n) => n.channel.kind === 'websocket');
  const stream = named.find((n) => n.channel.kind === 'stream');
  const lines: string[] = [];
  if (socket) {
    const key = Object.keys(socket.channel.receive.keys)[0];
    lines.push(
      '## A WebSocket channel',
      '',
      `\`connect${socket.type}\` opens \`${socket.channel.address}\` (on Node 20, install \`ws\`) and resolves once it is open.`,
      '`on(key, listener)` receives the messages of one key, typed by it; `send(message)` validates and sends one.',
      '',
      '```ts',
      `import { connect${socket.type} } from '${pkg}/channels';`,
      '',
      `const channel = await connect${socket.type}(${options(socket.channel)});`,
      ...(key === undefined ? [] : [`channel.on(${literal(key)}, (message) => console.log(message));`]),
      'channel.close();',
      '```',
      '',
    );
  }
  if (stream) {
    lines.push(
      '## A streaming channel',
      '',
      `\`stream${stream.type}\` reads \`${stream.channel.address}\` as an async iterable of its messages.`,
      '',
      '```ts',
      `import { stream${stream.type} } from '${pkg}/channels';`,
      '',
      `for await (const message of stream${stream.type}(${options(stream.channel)})) {`,
      '  console.log(message);',
      '}',
      '```',
      '',
    );
  }
  return lines;
}

/** `{ params: { … }, apiKey: '…' }`: the address parameters (an enum's first value, else the name) and a credential. */
function options(channel: IrChannel): string {
  const params = channel.parameters.map((p) => {
    const values = Array.isArray(p.schema.enum) ? p.schema.enum.filter((v) => typeof v === 'string') : [];
    return `${propertyName(p.name)}: ${literal(values[0] ?? p.name)}`;
  });
  const credential = Object.keys(channel.security).length > 0 ? ", apiKey: 'my-api-key'" : '';
  return `{ params: { ${params.join(', ')} }${credential} }`.replace('params: {  }', 'params: {}');
}
