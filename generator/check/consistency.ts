/** Cross-document checks: the OpenAPI event unions and the AsyncAPI messages describe the same events. */
import type { Diagnostic } from '../diagnostics.js';
import { payloadTypeTag, readMessages, unionMembers } from '../ir/events.js';
import { type SourceDocument, schemaRefName, valueAt } from '../load/index.js';
import { toPointer } from '../load/source-map.js';
import { EVENT_UNIONS, eventListDiagnostics } from './event-lists.js';

const UNIONS = EVENT_UNIONS;

/** Whether the OpenAPI document uses this service's event envelopes (`ServerEvent`, `ClientEvent`): an extra. */
export function usesEventEnvelopes(openapi: SourceDocument): boolean {
  return UNIONS.some(({ envelope }) => valueAt(openapi.value, `/components/schemas/${envelope}`) !== undefined);
}

/** Every payload the OpenAPI unions name has an AsyncAPI message, and the reverse; refs and tags line up. */
export function checkConsistency(openapi: SourceDocument, asyncapi: SourceDocument): Diagnostic[] {
  const out: Diagnostic[] = [];
  const at = (doc: SourceDocument, pointer: string, message: string): Diagnostic => ({
    severity: 'error',
    file: doc.file,
    ...doc.locate(pointer),
    pointer,
    message,
    rule: 'consistency',
  });
  const schemas = (valueAt(openapi.value, '/components/schemas') ?? {}) as Record<string, unknown>;
  const messages = readMessages(asyncapi);

  for (const { union, envelope } of UNIONS) {
    const unionPointer = `/components/schemas/${union}`;
    if (!schemas[union]) {
      out.push(at(openapi, '/components/schemas', `the schema ${union} is missing`));
      continue;
    }
    const members = unionMembers(openapi, union);
    const described = messages.filter((m) => m.envelope === envelope);
    for (const member of members) {
      if (!schemas[member]) out.push(at(openapi, unionPointer, `${union} names ${member}, which is not a schema`));
      else if (!payloadTypeTag(openapi, member))
        out.push(at(openapi, `/components/schemas/${member}`, `${member} has no constant \`type\` property`));
      if (!described.some((m) => m.payload === member))
        out.push(
          at(
            openapi,
            unionPointer,
            `${member} is in ${union} but no AsyncAPI message with envelope ${envelope} carries it`,
          ),
        );
    }
    for (const m of described) {
      const pointer = `/components/messages/${m.name}`;
      if (!m.payload) out.push(at(asyncapi, pointer, `message ${m.name} does not reference a payload schema`));
      // A union with members gets the fixable diagnostic of eventListDiagnostics instead.
      else if (members.length === 0)
        out.push(at(asyncapi, pointer, `message ${m.name} carries ${m.payload}, which ${union} does not list`));
    }
  }
  for (const m of messages) {
    if (!m.envelope || !UNIONS.some((u) => u.envelope === m.envelope))
      out.push(
        at(asyncapi, `/components/messages/${m.name}`, `message ${m.name} must extend ServerEvent or ClientEvent`),
      );
  }

  out.push(...eventListDiagnostics(openapi, asyncapi));
  for (const { pointer, schema } of sseResponseSchemas(openapi)) {
    const items = schemaRefName(
      (
        valueAt(openapi.value, `/components/schemas/${schemaRefName(schema.$ref) ?? ''}`) as
          | { items?: { $ref?: string } }
          | undefined
      )?.items?.$ref,
    );
    if (items !== 'ServerEvent')
      out.push(at(openapi, pointer, 'an SSE response must describe a sequence of ServerEvent (items: ServerEvent)'));
  }
  return out;
}

/** The `text/event-stream` 200 schemas of the operations marked `x-casi-transport: sse`. */
function sseResponseSchemas(openapi: SourceDocument): { pointer: string; schema: { $ref?: string } }[] {
  const found: { pointer: string; schema: { $ref?: string } }[] = [];
  for (const [path, item] of Object.entries(
    (valueAt(openapi.value, '/paths') ?? {}) as Record<string, Record<string, unknown>>,
  )) {
    for (const [method, op] of Object.entries(item)) {
      if ((op as Record<string, unknown>)?.['x-casi-transport'] !== 'sse') continue;
      const pointer = `${toPointer(['paths', path, method, 'responses', '200', 'content', 'text/event-stream', 'schema'])}`;
      found.push({ pointer, schema: (valueAt(openapi.value, pointer) ?? {}) as { $ref?: string } });
    }
  }
  return found;
}
