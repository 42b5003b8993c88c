/**
 * TypeScript samples of each event for the events page: a server event received with the session's `on(type, …)`
 * or read from the SSE stream, a client event sent with `session.send(…)` — through the generated client's methods
 * for the operations at the addresses of the event's channels.
 */
import { callText, tsValue } from '../emit/package/call-samples.js';
import type { Ir, IrEvent, IrOperation } from '../ir/model.js';
import { type CodeSample, clientSetup, tokenShape } from './code-samples.js';

/** The samples of `event`; `addresses` maps the AsyncAPI channel ids to their addresses. */
export function eventSamples(ir: Ir, event: IrEvent, addresses: ReadonlyMap<string, string>): CodeSample[] {
  const operations = event.channels
    .map((id) => ir.operations.find((op) => op.transport !== 'http' && op.path === addresses.get(id)))
    .filter((op): op is IrOperation => op !== undefined);
  const session = operations.find((op) => op.transport === 'websocket');
  const stream = operations.find((op) => op.transport === 'sse');
  const type = tsValue(event.type);
  const samples: CodeSample[] = [];
  if (event.direction === 'client') {
    if (session === undefined) return [];
    const sent = event.examples[0] ?? { payload: { type: event.type } };
    const source = [...clientSetup(ir), `const session = ${callText(ir, session, tokenShape(session))};`];
    source.push(`session.send(${tsValue(sent)});`);
    return [{ lang: 'TypeScript', label: 'Send it on the session', source: source.join('\n') }];
  }
  if (session) {
    const source = [
      ...clientSetup(ir),
      `const session = ${callText(ir, session, tokenShape(session))};`,
      `session.on(${type}, (event) => {`,
      '  console.log(event.payload);',
      '});',
    ];
    samples.push({ lang: 'TypeScript', label: 'Receive it on the session', source: source.join('\n') });
  }
  if (stream) {
    const source = [
      ...clientSetup(ir),
      `for await (const event of ${callText(ir, stream, tokenShape(stream))}) {`,
      `  if (event.payload.type === ${type}) console.log(event.payload);`,
      '}',
    ];
    samples.push({ lang: 'TypeScript', label: 'Read it from the stream', source: source.join('\n') });
  }
  return samples;
}
