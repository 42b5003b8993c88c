/** The discriminator mapping and `x-casi-method` checks: each mismatch an error naming both places. */
import { describe, expect, it } from 'vitest';
import { checkDiscriminators } from '../../generator/check/discriminators.js';
import { checkMethodNames } from '../../generator/check/method-names.js';
import { loadSpecs } from '../../generator/load/index.js';
import { parseSourceDocument } from '../../generator/load/source-map.js';
import { SPEC } from './helpers.js';

/** A document with a union of two tagged members and the given mapping lines (indented 10 spaces). */
function unionDocument(mapping: string[], extra = ''): string {
  return [
    'openapi: 3.1.0',
    'info: {title: t, version: "1"}',
    'paths: {}',
    'components:',
    '  schemas:',
    '    Ping:',
    '      type: object',
    '      properties:',
    '        type: {type: string, const: ping.sent}',
    '    Pong:',
    '      type: object',
    '      properties:',
    '        type: {type: string, const: pong.sent}',
    extra,
    '    Event:',
    '      oneOf:',
    "        - $ref: '#/components/schemas/Ping'",
    "        - $ref: '#/components/schemas/Pong'",
    '      discriminator:',
    '        propertyName: type',
    '        mapping:',
    ...mapping,
  ].join('\n');
}

/** The findings on `text` where the project's rules are strict (`strict`, the default) or not. */
const check = (text: string, strict = true) => checkDiscriminators(parseSourceDocument('api.yaml', text), strict);

describe('check: discriminator mappings', () => {
  it('accepts a mapping that names every member with its tag, and the real spec', async () => {
    const text = unionDocument([
      "          ping.sent: '#/components/schemas/Ping'",
      "          pong.sent: '#/components/schemas/Pong'",
    ]);
    expect(check(text)).toEqual([]);
    expect(checkDiscriminators((await loadSpecs(SPEC.openapi, SPEC.asyncapi)).openapi, true)).toEqual([]);
  });

  it('finds a member the mapping forgot, at the member, naming the mapping line and the entry to add', () => {
    const [problem, ...rest] = check(unionDocument(["          ping.sent: '#/components/schemas/Ping'"]));
    expect(rest).toEqual([]);
    expect(problem).toMatchObject({
      severity: 'error',
      file: 'api.yaml',
      line: 18,
      pointer: '/components/schemas/Event/oneOf/1',
    });
    expect(problem?.message).toBe(
      'Pong is in Event.oneOf but not in its discriminator mapping, so its `type` reads as "Pong" instead of ' +
        '"pong.sent": add pong.sent: \'#/components/schemas/Pong\' at /components/schemas/Event/discriminator/mapping (line 22:11)',
    );
  });

  it('finds a mapping entry naming a schema the union does not list', () => {
    const problems = check(
      unionDocument(
        [
          "          ping.sent: '#/components/schemas/Ping'",
          "          pong.sent: '#/components/schemas/Pong'",
          "          other.sent: '#/components/schemas/Other'",
        ],
        '    Other: {type: object}',
      ),
    );
    expect(problems.map((p) => [p.line, p.message])).toEqual([
      [
        24,
        'the mapping of Event names Other, which Event.oneOf (/components/schemas/Event/oneOf (line 17:9)) does not list',
      ],
    ]);
  });

  it('finds a mapping key that differs from the tag its member fixes, naming where the member fixes it', () => {
    const problems = check(
      unionDocument([
        "          ping.sent: '#/components/schemas/Ping'",
        "          PongSent: '#/components/schemas/Pong'",
      ]),
    );
    expect(problems.map((p) => [p.pointer, p.message])).toEqual([
      [
        '/components/schemas/Event/discriminator/mapping/PongSent',
        'the mapping of Event gives Pong the tag "PongSent", but Pong fixes `type` to "pong.sent" at ' +
          '/components/schemas/Pong/properties/type (line 13:15)',
      ],
    ]);
  });

  it('warns, where the rules are not strict, of what is valid OpenAPI, and refuses an entry naming no schema', () => {
    const forgot = check(unionDocument(["          ping.sent: '#/components/schemas/Ping'"]), false);
    expect(forgot.map((p) => [p.severity, p.pointer])).toEqual([['warning', '/components/schemas/Event/oneOf/1']]);
    const entries = [
      "          ping.sent: '#/components/schemas/Ping'",
      "          pong.sent: '#/components/schemas/Pong'",
    ];
    const problems = check(
      unionDocument(
        [
          ...entries,
          "          other.sent: '#/components/schemas/Other'",
          "          ghost.sent: '#/components/schemas/Ghost'",
        ],
        '    Other: {type: object}',
      ),
      false,
    );
    expect(problems.map((p) => [p.severity, p.pointer])).toEqual([
      ['warning', '/components/schemas/Event/discriminator/mapping/other.sent'],
      ['error', '/components/schemas/Event/discriminator/mapping/ghost.sent'],
    ]);
  });

  it('leaves unions without a mapping, and members tagged with their own name, alone', () => {
    expect(check(unionDocument(['          {}']).replace('        mapping:\n          {}', ''))).toEqual([]);
    const named = unionDocument(["          ping.sent: '#/components/schemas/Ping'"]).replace(
      'const: pong.sent',
      'const: Pong',
    );
    expect(check(named)).toEqual([]);
  });
});

describe('check: x-casi-method names', () => {
  const paths = (second: string) =>
    [
      'openapi: 3.1.0',
      'info: {title: t, version: "1"}',
      'paths:',
      '  /things:',
      '    get: {tags: [things], x-casi-method: list, responses: {"200": {description: ok}}}',
      '  /things/{id}:',
      `    get: {tags: [${second}], x-casi-method: list, responses: {"200": {description: ok}}}`,
    ].join('\n');

  it('refuses two operations of one resource with one method name, naming both', () => {
    const problems = checkMethodNames(parseSourceDocument('api.yaml', paths('things')));
    expect(problems.map((p) => [p.line, p.pointer, p.message])).toEqual([
      [
        7,
        '/paths/~1things~1{id}/get/x-casi-method',
        'x-casi-method list is taken in its resource by /paths/~1things/get/x-casi-method (line 5:42): give one of them another name',
      ],
    ]);
  });

  it('accepts the same method name on two resources', () => {
    expect(checkMethodNames(parseSourceDocument('api.yaml', paths('widgets')))).toEqual([]);
  });
});
