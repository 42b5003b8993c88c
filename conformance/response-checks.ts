/**
 * The checks every answer goes through, whatever was sent (as Schemathesis names them): no 5xx, a declared status,
 * a declared content type, and a body — or every SSE event and WebSocket frame — valid against its schema.
 */
import type { IrOperation } from '../generator/ir/model.js';
import type { Report } from './report.js';
import type { ConformanceSpec } from './spec.js';
import type { WireResponse } from './wire.js';

/** The event type that answers a client event sent after the end (on the sending socket only). */
const LATE_ANSWER = 'server.error';

/** Names of the response checks, in table order. */
export const RESPONSE_CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'response_headers_conformance',
  'error_code_conformance',
  'event_stream_conformance',
] as const;

/**
 * Runs the response checks on `response` to a request of `op` (with `pathValues`), recording each in `report`;
 * `replay` (a `curl` command) is kept with a failure.
 */
export function checkResponse(
  spec: ConformanceSpec,
  report: Report,
  op: IrOperation,
  response: WireResponse,
  context: string,
  pathValues: Readonly<Record<string, string>> = {},
  replay?: string,
): void {
  const record = (check: string, problem: string | undefined) => report.record(check, op.id, problem, replay);
  // No answer came (refused, reset, timed out): nothing to check here; the check that sent the request fails it.
  if (response.error !== undefined) return;
  const where = `${context} → ${response.status}`;
  record('not_a_server_error', response.status >= 500 ? `${where}: ${response.text.slice(0, 300)}` : undefined);
  const declared = spec.response(op, response.status);
  record('status_code_conformance', declared ? undefined : `${where}: status not declared`);
  if (!declared) return;
  const expectedType = declared.contentType ?? '';
  const hasBody = response.text !== '' || (op.transport === 'sse' && response.events.length > 0);
  const typeProblem =
    response.malformedEvents.length > 0
      ? `${where}: a frame or SSE message is not JSON: ${response.malformedEvents[0]?.slice(0, 200)}`
      : expectedType === ''
        ? hasBody
          ? `${where}: no content is declared, got ${response.contentType || 'a body'}`
          : undefined
        : response.contentType === expectedType
          ? undefined
          : `${where}: content type ${response.contentType || '(none)'}, declared ${expectedType}`;
  record('content_type_conformance', typeProblem);
  record('response_schema_conformance', schemaProblem(spec, op, response, declared.schema, where));
  const missing = declared.headers.filter((h) => response.headers[h.toLowerCase()] === undefined);
  record(
    'response_headers_conformance',
    missing.length > 0 ? `${where}: declared header(s) ${missing.join(', ')} missing` : undefined,
  );
  if (response.status >= 400) record('error_code_conformance', errorCodeProblem(spec, response, where));
  if (op.transport !== 'http' && response.status < 300) {
    const problem = streamProblem(spec, response, pathValues, op.transport === 'websocket');
    record('event_stream_conformance', problem && `${where}: ${problem}`);
  }
}

/**
 * An error answer's `code` is one of the error-code table (`x-casi-error-codes`), answered with the table's status
 * and `transient` flag.
 */
function errorCodeProblem(spec: ConformanceSpec, response: WireResponse, where: string): string | undefined {
  const body = response.json as { code?: unknown; transient?: unknown } | undefined;
  if (typeof body?.code !== 'string') return undefined;
  const row = spec.ir.errorCodes.find((e) => e.code === body.code);
  if (!row) return `${where}: code ${body.code} is not in the error-code table`;
  if (row.status !== response.status) return `${where}: code ${body.code} belongs with status ${row.status}`;
  return row.transient === body.transient ? undefined : `${where}: ${body.code} must have transient: ${row.transient}`;
}

/**
 * The rules of a stream or session as a whole: SSE messages carry `id:` = the event's id and no `event:` name
 * (`ServerEventStream`); ids are unique; nothing follows a terminal event (`x-casi-terminal`); an envelope member
 * named like the path parameter (`conversation_id`) holds the requested value.
 */
export function streamProblem(
  spec: ConformanceSpec,
  response: WireResponse,
  pathValues: Readonly<Record<string, string>>,
  socket: boolean,
): string | undefined {
  const events = response.events as { id?: unknown; payload?: { type?: unknown } }[];
  if (response.eventNames.length > 0) return `SSE messages name an event: ${response.eventNames[0]}`;
  const badId = response.messageIds.findIndex((id, i) => id !== events[i]?.id);
  if (badId >= 0)
    return `SSE message ${badId} has id: ${response.messageIds[badId]}, its event ${String(events[badId]?.id)}`;
  const ids = events.map((e) => e.id);
  if (new Set(ids).size !== ids.length) return 'an event id repeats';
  const terminal = new Set(spec.ir.events.filter((e) => e.terminal).map((e) => e.type));
  const end = events.findIndex((e) => terminal.has(String(e.payload?.type)));
  // On a session, a client event sent after the end is answered by a `server.error` to that socket only
  // (DECISIONS.md, "Client event → server event mapping"); nothing else may follow.
  const late = end < 0 ? [] : events.slice(end + 1).filter((e) => !(socket && e.payload?.type === LATE_ANSWER));
  if (late.length > 0) return `${late.length} event(s) follow the terminal ${String(events[end]?.payload?.type)}`;
  for (const [name, value] of Object.entries(pathValues)) {
    const other = events.find((e) => name in e && (e as Record<string, unknown>)[name] !== value);
    if (other)
      return `event ${String(other.id)} has ${name} ${String((other as Record<string, unknown>)[name])}, not ${value}`;
  }
  return undefined;
}

/** The first schema problem of the body, or of any event of a stream or session; undefined when all is valid. */
function schemaProblem(
  spec: ConformanceSpec,
  op: IrOperation,
  response: WireResponse,
  schema: unknown,
  where: string,
): string | undefined {
  if (op.transport !== 'http' && response.status < 300) {
    for (const event of response.events) {
      const problem = eventProblem(spec, event);
      if (problem) return `${where}: ${problem}`;
    }
    return undefined;
  }
  if (schema === undefined) return undefined;
  const declared = spec.response(op, response.status);
  const validate = declared ? spec.responseValidator(declared) : undefined;
  if (!validate) return undefined;
  if (response.json === undefined) return `${where}: the body is not JSON: ${response.text.slice(0, 200)}`;
  if (validate(response.json)) return undefined;
  const issues = 'errors' in validate ? JSON.stringify(validate.errors) : '';
  return `${where}: body ${JSON.stringify(response.json).slice(0, 300)} is invalid ${issues}`;
}

/**
 * Problems of one server event: the envelope (`ServerEvent`) and the AsyncAPI message of its `payload.type`
 * (e.g. `AgentMessageDeltaEvent`), both with the generated validators.
 */
export function eventProblem(spec: ConformanceSpec, event: unknown): string | undefined {
  const envelope = spec.validator('ServerEvent');
  if (envelope && !envelope(event))
    return `event ${JSON.stringify(event).slice(0, 200)} is not a ServerEvent: ${JSON.stringify(envelope.errors)}`;
  const type = (event as { payload?: { type?: unknown } }).payload?.type;
  const message = spec.ir.events.find((e) => e.direction === 'server' && e.type === type);
  if (!message) return `event type ${String(type)} is not an AsyncAPI message`;
  const validate = spec.validator(message.name);
  if (validate && !validate(event)) return `event is not a ${message.name}: ${JSON.stringify(validate.errors)}`;
  return undefined;
}
