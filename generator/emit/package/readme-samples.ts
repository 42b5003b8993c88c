/**
 * The usage sections of the generated package's README, written from the IR so that every sample names what the
 * package of that spec really exports: a real operation for the call, a paginated one for the list, the spec's SSE
 * and WebSocket operations for the stream and the session, its AsyncAPI channels. A section is left out when the
 * spec has nothing for it.
 * The ```ts blocks read as one module, in order: each name is imported and declared once.
 */
import type { Ir, IrEvent, IrOperation } from '../../ir/model.js';
import type { EmittedFile } from '../shared/files.js';
import { successResponse } from '../shared/operation-types.js';
import { callableBare, callText, serverUrl, tsValue } from './call-samples.js';
import { channelSections } from './readme-channels.js';

/** The usage sections, as Markdown lines. `pkg` is the package name; `files` the emitted sources. */
export function usageSections(ir: Ir, pkg: string, files: readonly EmittedFile[]): string[] {
  const http = ir.operations.filter((op) => op.transport === 'http');
  // Prefer a read (GET) with a path parameter: it shows an argument and needs no body.
  const bare = http.filter((op) => callableBare(ir, op) && op.paginated === undefined && !streamsItems(op));
  const reads = bare.filter((op) => op.method === 'get');
  const call =
    reads.find((op) => op.parameters.path.length > 0 && /^(retrieve|get)/i.test(op.methodName)) ??
    reads.find((op) => op.parameters.path.length > 0) ??
    reads[0] ??
    bare[0];
  const list = http.find((op) => op.paginated !== undefined && callableBare(ir, op));
  const stream = ir.operations.find((op) => op.transport === 'sse' && callableBare(ir, op));
  const session = ir.operations.find((op) => op.transport === 'websocket' && callableBare(ir, op));
  const rest = ir.operations.length > 0;
  return [
    '## Install',
    '',
    '```sh',
    `npm install ${pkg}`,
    '```',
    '',
    ...(rest ? createSection(ir, pkg) : []),
    ...(call ? callSection(ir, call) : []),
    ...(list ? listSection(ir, list) : []),
    ...(stream ? streamSection(ir, stream) : []),
    ...(session ? sessionSection(ir, session) : []),
    ...channelSections(ir, pkg),
    ...(call ? errorsSection(ir, pkg, call) : []),
    ...(rest ? retriesSection(ir, call) : []),
    ...(call ? withResponseSection(ir, call) : []),
    ...(rest ? browserSection(ir) : []),
    ...validatorsSection(ir, pkg, files, call),
  ];
}

/** An HTTP operation whose answer is an event stream read as items (not awaited as one body). */
function streamsItems(op: IrOperation): boolean {
  return successResponse(op)?.contentType?.startsWith('text/event-stream') === true;
}

/** Whether every operation that needs a credential takes HTTP basic authentication only. */
function basicOnly(ir: Ir): boolean {
  const used = new Set(ir.operations.flatMap((op) => op.security));
  return used.size > 0 && [...used].every((name) => ir.securitySchemes[name]?.type === 'basic');
}

function createSection(ir: Ir, pkg: string): string[] {
  const credentials = basicOnly(ir) ? "username: 'me', password: 'secret'" : "apiKey: 'my-api-key'";
  return [
    '## Create a client',
    '',
    '```ts',
    `import { createClient } from '${pkg}/client';`,
    '',
    `const client = createClient({ baseUrl: '${serverUrl(ir)}', ${credentials} });`,
    '```',
    '',
    'Left out, `baseUrl` and `apiKey` are read from the `CASI_BASE_URL` and `CASI_API_KEY` environment variables',
    '(where there is a `process`): `createClient({})` in a server whose environment sets both. With no base URL at',
    'all, `createClient` throws a `CasiError` naming both.',
    '',
  ];
}

function callSection(ir: Ir, op: IrOperation): string[] {
  return [
    '## A call',
    '',
    `Each operation is a method of its resource; \`${op.method.toUpperCase()} ${op.path}\`:`,
    '',
    '```ts',
    `const found = await ${callText(ir, op)};`,
    'console.log(found);',
    '```',
    '',
    'Path parameters come first, then the body, then the query; every method takes call options last.',
    '',
  ];
}

function listSection(ir: Ir, op: IrOperation): string[] {
  const call = callText(ir, op);
  return [
    '## A list',
    '',
    `\`${op.method.toUpperCase()} ${op.path}\` returns a paginator that follows the \`cursor\` of each page:`,
    '',
    '```ts',
    `for await (const item of ${call}) {`,
    '  console.log(item);',
    '}',
    `const everything = await ${call}.toArray();`,
    `const firstTen = await ${call}.take(10);`,
    `for await (const page of ${call}.pages()) console.log(page);`,
    '```',
    '',
    '`take(n)` fetches no page after the one that holds the last item it returns.',
    '',
  ];
}

/** `, { token: '…' }` for operations whose credential may be a query token (the conversation token). */
function tokenOption(op: IrOperation): string | undefined {
  return op.credentialParameters.length > 0 ? "{ token: 'conversation-token' }" : undefined;
}

function streamSection(ir: Ir, op: IrOperation): string[] {
  const options = tokenOption(op);
  return [
    '## A stream',
    '',
    `\`${op.method.toUpperCase()} ${op.path}\` is a Server-Sent Events stream; iterate it with \`for await\`. It reconnects`,
    'with `Last-Event-ID` after a dropped connection and ends after a terminal event.',
    '',
    '```ts',
    `for await (const event of ${callText(ir, op, options === undefined ? {} : { options })}) {`,
    '  console.log(event.payload.type, event);',
    '}',
    '```',
    '',
  ];
}

function sessionSection(ir: Ir, op: IrOperation): string[] {
  const options = tokenOption(op);
  const server = pickEvent(ir.events, 'server');
  const client = ir.events.find((e) => e.direction === 'client' && e.examples.length > 0);
  return [
    '## A session',
    '',
    `\`${op.method.toUpperCase()} ${op.path}\` opens a WebSocket session (on Node 20, install \`ws\`). \`on(type, handler)\``,
    'receives one event type, typed by it; `send(event)` validates and sends a client event.',
    '',
    '```ts',
    `const session = ${callText(ir, op, options === undefined ? {} : { options })};`,
    ...(server ? [`session.on('${server.type}', (event) => console.log(event.payload));`] : []),
    ...(client ? [`session.send(${tsValue(client.examples[0])});`] : []),
    'session.close();',
    '```',
    '',
    'A session is also an async iterable of every server event (`for await (const event of session)`).',
    '',
  ];
}

/** A non-experimental event of `direction`, else any. */
function pickEvent(events: readonly IrEvent[], direction: IrEvent['direction']): IrEvent | undefined {
  const of = events.filter((e) => e.direction === direction);
  return of.find((e) => !e.experimental && !e.terminal) ?? of[0];
}

function errorsSection(ir: Ir, pkg: string, op: IrOperation): string[] {
  const codes = ir.errorCodes.slice(0, 3).map((c) => `\`${c.code}\``);
  return [
    '## Errors',
    '',
    'An answer with an error status throws an `ApiError` (`CasiApiError` is the same class, with `code` typed from',
    "the spec's error codes): `status` is the HTTP status, `code` the body's error code, `data` the body.",
    '',
    '```ts',
    `import { CasiApiError } from '${pkg}/client';`,
    '',
    'try {',
    `  await ${callText(ir, op)};`,
    '} catch (error) {',
    '  if (!(error instanceof CasiApiError)) throw error;',
    '  console.log(error.status, error.code, error.message);',
    '}',
    '```',
    '',
    'Subclasses name the common statuses (`NotFoundError`, `RateLimitError`, …); `ApiConnectionError` and',
    '`ApiTimeoutError` mean no answer came.',
    ...(codes.length > 0
      ? ['', `The codes include ${codes.join(', ')}; \`ErrorCode\` (in \`…/types\`) lists them.`]
      : []),
    '',
  ];
}

function retriesSection(ir: Ir, op: IrOperation | undefined): string[] {
  return [
    '## Retries and timeouts',
    '',
    'Failed connections and answers 408, 429 and 5xx (or an error code the spec marks transient) are retried with',
    'backoff, honouring `Retry-After`, twice by default (a non-idempotent call only where nothing can have been done);',
    'each attempt times out after 60 s. Set both for the client, or for one call:',
    '',
    '```ts',
    `const patient = createClient({ baseUrl: '${serverUrl(ir)}', maxRetries: 5, timeoutMs: 120_000 });`,
    ...(op ? [`await ${callText(ir, op, { options: '{ maxRetries: 0, timeoutMs: 5_000 }' })};`] : []),
    '```',
    '',
  ];
}

function withResponseSection(ir: Ir, op: IrOperation): string[] {
  return [
    '## The raw response',
    '',
    '`await` gives the body; `.withResponse()` gives it with the `Response` (status, headers):',
    '',
    '```ts',
    `const { data, response } = await ${callText(ir, op)}.withResponse();`,
    "console.log(response.status, response.headers.get('content-type'), data);",
    '```',
    '',
  ];
}

function browserSection(ir: Ir): string[] {
  const events = ir.operations.some((op) => op.transport !== 'http' && op.credentialParameters.length > 0);
  return [
    '## In the browser',
    '',
    'The client runs on `fetch` and the global `WebSocket`, so it works in browsers as it is; bundlers leave `ws`',
    'out (see below). Keep API keys on your server: a page calls your own backend, or a same-origin proxy.',
    ...(events ? ['A page that reads events passes the short-lived `token` to the stream or session instead.'] : []),
    '',
    '```ts',
    'const browserClient = createClient({ baseUrl: location.origin });',
    '```',
    '',
  ];
}

function validatorsSection(
  ir: Ir,
  pkg: string,
  files: readonly EmittedFile[],
  call: IrOperation | undefined,
): string[] {
  const source = files.find((f) => f.path === 'src/validators.gen.ts')?.content ?? '';
  const responseRef = call ? successResponse(call)?.schema?.$ref : undefined;
  const preferred = typeof responseRef === 'string' ? responseRef.split('/').pop() : undefined;
  const names = [...(preferred ? [preferred] : []), ...ir.schemas.map((s) => s.name)];
  const name = names.find((n) => source.includes(`export const validate${n}: Validator<`));
  if (name === undefined) return [];
  const validator = `validate${name}`;
  return [
    '## Validators on their own',
    '',
    `\`${pkg}/validators\` has one precompiled validator per schema: a type guard that leaves its problems in`,
    '`errors` (each with a JSON `pointer` and a `message`). It needs neither the client nor a network.',
    '',
    '```ts',
    `import { ${validator} } from '${pkg}/validators';`,
    '',
    "const value: unknown = JSON.parse('{}');",
    `if (${validator}(value)) {`,
    '  console.log(value);',
    '} else {',
    `  for (const issue of ${validator}.errors ?? []) console.log(issue.pointer, issue.message);`,
    '}',
    '```',
    '',
  ];
}
