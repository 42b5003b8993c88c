/**
 * Code samples of each operation for the REST page: a curl command (method, URL with its path parameters and
 * required query filled in, the credential its security needs, `Service-Version` where it declares it, the request
 * example as the body) and a TypeScript call of the generated client, under the names the client uses.
 */
import {
  argumentValue,
  type CallShape,
  callText,
  parameterValue,
  requestExample,
  schemaValue,
  serverUrl,
} from '../emit/package/call-samples.js';
import { packageName } from '../emit/package/index.js';
import type { Ir, IrOperation, JsonSchema } from '../ir/model.js';
import { valueAt } from '../load/refs.js';

/** One entry of Redoc's `x-codeSamples`. */
export interface CodeSample {
  readonly lang: string;
  readonly label: string;
  readonly source: string;
}

/** A word for a POSIX shell, in single quotes. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A path value in the default (`simple`) style: list items and object members joined with commas. */
function urlText(value: unknown): string {
  if (Array.isArray(value)) return value.join(',');
  if (value !== null && typeof value === 'object') return Object.entries(value).flat().join(',');
  return String(value);
}

/** The curl command of `op`. Credentials are read from `CASI_API_KEY` (or the user and password variables). */
export function curlCommand(ir: Ir, op: IrOperation): string {
  const url = new URL(serverUrl(ir));
  let path = op.path;
  for (const p of op.parameters.path) {
    path = path.replace(`{${p.name}}`, encodeURIComponent(urlText(argumentValue(ir, op, p))));
  }
  const query = op.parameters.query
    .filter((p) => p.required)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(parameterValue(ir, op, p)))}`);
  const headers: string[] = [];
  const lines: string[] = [];
  const scheme = op.security.map((name) => ir.securitySchemes[name]).find((s) => s !== undefined);
  let credentialQuery = '';
  if (scheme?.type === 'bearer') lines.push(`-H "Authorization: Bearer $CASI_API_KEY"`);
  else if (scheme?.type === 'basic') lines.push(`-u "$CASI_USERNAME:$CASI_PASSWORD"`);
  else if (scheme?.type === 'apiKey' && scheme.in === 'header') lines.push(`-H "${scheme.name}: $CASI_API_KEY"`);
  else if (scheme?.type === 'apiKey' && scheme.in === 'cookie') lines.push(`-b "${scheme.name}=$CASI_API_KEY"`);
  else if (scheme?.type === 'apiKey') credentialQuery = `${encodeURIComponent(scheme.name)}=$CASI_API_KEY`;
  for (const p of op.parameters.header) {
    const versioned = p.name.toLowerCase() === 'service-version' && ir.serviceVersion !== undefined;
    if (versioned || p.required)
      headers.push(`${p.name}: ${versioned ? ir.serviceVersion : parameterValue(ir, op, p)}`);
  }
  if (op.transport === 'sse') headers.push('Accept: text/event-stream');
  if (op.transport === 'websocket') {
    headers.push('Connection: Upgrade', 'Upgrade: websocket', 'Sec-WebSocket-Version: 13');
    headers.push('Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==');
  }
  const body = op.requestBody;
  if (body) headers.push(`Content-Type: ${body.contentType}`);
  lines.push(...headers.map((h) => `-H ${shellQuote(h)}`));
  if (body) {
    const example = requestExample(ir, op);
    const json = /[/+]json\b/.test(body.contentType);
    const value = example ?? schemaValue(ir, body.schema);
    if (json) lines.push(`-d ${shellQuote(JSON.stringify(value, null, 2))}`);
    else lines.push('--data-binary @body');
  }
  const queryText = [...query, credentialQuery].filter(Boolean).join('&');
  const target = `${url.origin}${url.pathname.replace(/\/$/, '')}${path}${queryText ? `?${queryText}` : ''}`;
  // The credential in the query is a shell variable: the URL goes in double quotes then.
  const quotedUrl = credentialQuery ? `"${target.replace(/(["\\`])/g, '\\$1')}"` : shellQuote(target);
  const flags = [op.method === 'get' ? '' : `-X ${op.method.toUpperCase()}`, op.transport === 'http' ? '' : '-N -i']
    .filter(Boolean)
    .join(' ');
  return [`curl ${flags ? `${flags} ` : ''}${quotedUrl}`, ...lines].join(' \\\n  ');
}

/** The lines that import and create the client, its base URL and API key from the environment. */
export function clientSetup(ir: Ir): string[] {
  return [
    `import { createClient } from '${packageName(ir)}/client';`,
    '',
    '// baseUrl and apiKey from the CASI_BASE_URL and CASI_API_KEY environment variables.',
    'const client = createClient({});',
  ];
}

/** The call options of a stream or session that may take a query token (the conversation token). */
export function tokenShape(op: IrOperation): CallShape {
  return op.credentialParameters.length > 0 ? { options: "{ token: 'conversation-token' }" } : {};
}

/** The TypeScript call of `op` through the generated client, with what it gives back. */
export function clientSnippet(ir: Ir, op: IrOperation): string {
  const setup = clientSetup(ir);
  const token = tokenShape(op);
  if (op.transport === 'sse') {
    return [
      ...setup,
      `for await (const event of ${callText(ir, op, token)}) {`,
      '  console.log(event.payload.type, event);',
      '}',
    ].join('\n');
  }
  if (op.transport === 'websocket') {
    return [
      ...setup,
      `const session = ${callText(ir, op, token)};`,
      'for await (const event of session) console.log(event.payload.type, event);',
    ].join('\n');
  }
  if (op.paginated !== undefined) {
    return [...setup, `for await (const item of ${callText(ir, op)}) {`, '  console.log(item);', '}'].join('\n');
  }
  return [...setup, `const result = await ${callText(ir, op)};`, 'console.log(result);'].join('\n');
}

/** The `x-codeSamples` of `op`: curl, then TypeScript. */
export function operationSamples(ir: Ir, op: IrOperation): CodeSample[] {
  return [
    { lang: 'curl', label: 'curl', source: curlCommand(ir, op) },
    { lang: 'TypeScript', label: 'TypeScript', source: clientSnippet(ir, op) },
  ];
}

/** Sets `x-codeSamples` on every operation of `document` (the marked copy Redoc renders) that the IR holds. */
export function addCodeSamples(document: JsonSchema, ir: Ir): void {
  for (const op of ir.operations) {
    const node = valueAt(document, op.pointer);
    if (node !== null && typeof node === 'object')
      (node as Record<string, unknown>)['x-codeSamples'] = operationSamples(ir, op);
  }
}
