/**
 * Property: any small, valid AsyncAPI document, 2.6 or 3.0 (odd names, channels with parameters, inline and referenced
 * messages, both directions, WebSocket, HTTP and broker protocols, nested, recursive and union payloads) passes the
 * check and generates a package that compiles under tsc --strict. fast-check makes the documents and shrinks a failing
 * one.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { hasErrors } from '../../generator/check/index.js';
import { formatDiagnostic, InputError } from '../../generator/diagnostics.js';
import { resolveOptions } from '../../generator/options.js';
import { generate } from '../../generator/pipeline.js';
import { writeOutput } from '../../generator/write.js';
import { compileStrict } from './compile-strict.js';
import { ROOT } from './helpers.js';
import { schema, segment } from './random-documents.js';

mkdirSync(join(ROOT, 'tmp'), { recursive: true });
const work = mkdtempSync(join(ROOT, 'tmp', 'any-asyncapi-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Keys AsyncAPI allows for components (`^[a-zA-Z0-9.\-_]+$`), in the cases people write them. */
const key = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,10}$/);
const PROTOCOLS = ['ws', 'wss', 'http', 'https', 'mqtt', 'kafka', 'amqp'] as const;

/** `components`: schemas over each other (3.1's type lists: JSON Schema, as AsyncAPI's dialect is) and messages. */
function components(schemaNames: readonly string[], messageNames: readonly string[]): fc.Arbitrary<object> {
  const named = (names: readonly string[], of: () => fc.Arbitrary<object>) =>
    fc.tuple(...names.map(of)).map((values) => Object.fromEntries(names.map((n, i) => [n, values[i]])));
  return fc.record({
    schemas: named(schemaNames, () => schema(schemaNames, '3.1.0')),
    messages: named(messageNames, () => message(schemaNames)),
  });
}

/** A message: a payload written inline, with or without a `name`. */
function message(schemaNames: readonly string[]): fc.Arbitrary<object> {
  return fc.record({ name: key, summary: key, payload: schema(schemaNames, '3.1.0') }, { requiredKeys: ['payload'] });
}

/** A parameter name a URI template allows (RFC 6570 `varname`: letters, digits, `_`). */
const variable = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/);

/** A channel address of one to three segments, some of them parameters; its parameter names. */
const address = fc
  .array(
    fc.oneof(
      segment,
      variable.map((s) => `{${s}}`),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .filter((segments) => new Set(segments).size === segments.length)
  .map((segments) => ({
    address: segments.join('/'),
    parameters: segments.filter((s) => s.startsWith('{')).map((s) => s.slice(1, -1)),
  }));

/** An AsyncAPI 3.0 document: servers, channels holding inline and referenced messages, operations on them. */
const v3 = fc
  .tuple(
    fc.uniqueArray(key, { minLength: 1, maxLength: 3 }),
    fc.uniqueArray(key, { minLength: 1, maxLength: 3 }),
    fc.uniqueArray(address, { minLength: 1, maxLength: 2, selector: (a) => a.address }),
  )
  .chain(([schemaNames, messageNames, channels]) =>
    fc.record({
      asyncapi: fc.constant('3.0.0'),
      info: fc.record({ title: key, version: fc.constant('1.0.0') }),
      servers: fc.record({
        main: fc.record({ host: fc.constant('api.example.com'), protocol: fc.constantFrom(...PROTOCOLS) }),
      }),
      components: components(schemaNames, messageNames),
      channels: fc
        .tuple(
          ...channels.map((channel) =>
            fc
              .tuple(
                fc.subarray(messageNames, { minLength: 1 }),
                fc.dictionary(key, message(schemaNames), { maxKeys: 2 }),
                fc.constantFrom(true, false),
              )
              .map(([referenced, inline, nullAddress]) => ({
                address: nullAddress && channel.parameters.length === 0 ? null : channel.address,
                ...(channel.parameters.length > 0
                  ? { parameters: Object.fromEntries(channel.parameters.map((p) => [p, { description: p }])) }
                  : {}),
                messages: {
                  ...Object.fromEntries(referenced.map((m) => [`ref-${m}`, { $ref: `#/components/messages/${m}` }])),
                  ...inline,
                },
              })),
          ),
        )
        .map((items) => Object.fromEntries(items.map((item, i) => [`channel${i}`, item]))),
    }),
  )
  .chain((doc) =>
    fc
      .tuple(
        ...Object.entries(doc.channels).map(([id, channel]) =>
          fc
            .tuple(
              fc.constantFrom('send', 'receive', 'both'),
              fc.subarray(Object.keys(channel.messages), { minLength: 1 }),
            )
            .map(([action, messages]) =>
              (action === 'both' ? ['send', 'receive'] : [action]).map((a) => [
                `${a}-${id}`,
                {
                  action: a,
                  channel: { $ref: `#/channels/${id}` },
                  messages: messages.map((m) => ({ $ref: `#/channels/${id}/messages/${m}` })),
                },
              ]),
            ),
        ),
      )
      .map((operations) => ({ ...doc, operations: Object.fromEntries(operations.flat()) })),
  );

/** An AsyncAPI 2.6 document: channels named by their address, publish and subscribe with one message or several. */
const v2 = fc
  .tuple(
    fc.uniqueArray(key, { minLength: 1, maxLength: 3 }),
    fc.uniqueArray(key, { minLength: 1, maxLength: 3 }),
    fc.uniqueArray(address, { minLength: 1, maxLength: 2, selector: (a) => a.address }),
  )
  .chain(([schemaNames, messageNames, channels]) => {
    const ref = fc.constantFrom(...messageNames).map((m) => ({ $ref: `#/components/messages/${m}` }));
    const carried = fc.oneof(
      ref,
      message(schemaNames),
      fc.record({ oneOf: fc.array(fc.oneof(ref, message(schemaNames)), { minLength: 2, maxLength: 3 }) }),
    );
    const operation = fc.record({ operationId: key, message: carried }, { requiredKeys: ['message'] });
    return fc.record({
      asyncapi: fc.constant('2.6.0'),
      info: fc.record({ title: key, version: fc.constant('1.0.0') }),
      servers: fc.record({
        main: fc.record({ url: fc.constant('api.example.com'), protocol: fc.constantFrom(...PROTOCOLS) }),
      }),
      components: components(schemaNames, messageNames),
      channels: fc
        .tuple(
          ...channels.map((channel) =>
            fc
              .record({ publish: operation, subscribe: operation }, { requiredKeys: [] })
              .filter((item) => Object.keys(item).length > 0)
              .map((item) => ({
                ...(channel.parameters.length > 0
                  ? {
                      parameters: Object.fromEntries(
                        channel.parameters.map((p) => [p, { schema: { type: 'string' } }]),
                      ),
                    }
                  : {}),
                ...item,
              })),
          ),
        )
        .map((items) => Object.fromEntries(items.map((item, i) => [channels[i]?.address ?? '', item]))),
    });
  });

/** Operation ids are unique across a 2.6 document: later ones are numbered. */
function uniqueOperationIds(doc: { channels: Record<string, Record<string, { operationId?: string }>> }): void {
  const seen = new Set<string>();
  for (const item of Object.values(doc.channels)) {
    for (const operation of [item.publish, item.subscribe]) {
      if (operation?.operationId === undefined) continue;
      let id = operation.operationId;
      for (let n = 2; seen.has(id); n++) id = `${operation.operationId}${n}`;
      seen.add(id);
      operation.operationId = id;
    }
  }
}

describe('any small AsyncAPI document', () => {
  it.each([
    ['3.0', v3],
    ['2.6', v2],
  ] as const)(
    '%s passes the check, generates, and compiles under strict',
    async (version, documents) => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(documents, async (doc) => {
          if (version === '2.6') uniqueOperationIds(doc as unknown as Parameters<typeof uniqueOperationIds>[0]);
          const dir = join(work, `${version}-${run++}`);
          mkdirSync(dir, { recursive: true });
          writeFileSync(join(dir, 'asyncapi.json'), JSON.stringify(doc, null, 2));
          const options = resolveOptions({ asyncapi: join(dir, 'asyncapi.json'), out: join(dir, 'out') });
          const generated = await generate(options).catch((error: unknown) => error);
          const shown = generated instanceof InputError ? generated.diagnostics : [];
          expect(generated, shown.map((d) => formatDiagnostic(d)).join('\n')).not.toBeInstanceOf(Error);
          const { files, diagnostics } = generated as Awaited<ReturnType<typeof generate>>;
          expect(hasErrors(diagnostics), diagnostics.map((d) => formatDiagnostic(d)).join('\n')).toBe(false);
          await writeOutput(options.out, files);
        }),
        { numRuns: 5, seed: 20261127, endOnFailure: true },
      );
      // Every run's package in one program: a problem names its <version>-N/out/ folder, beside its asyncapi.json.
      expect(run).toBe(5);
      expect(compileStrict(work, [`${version}-*/out/src/**/*.ts`])).toEqual([]);
    },
    300_000,
  );
});
