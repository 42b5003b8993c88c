/** The runtime constants of types.gen.ts match the specs: event type tags and the error-code table. */
import { describe, expect, it } from 'vitest';
import { clientEventTypes, errorCodes, serverEventTypes } from '../../generated/src/types.gen.js';
import { isObject, messages, openapi } from './spec.js';

/** The sorted message names of one envelope in asyncapi.yaml. */
function messageNames(envelope: 'ServerEvent' | 'ClientEvent'): string[] {
  return messages()
    .filter((m) => m.envelope === envelope)
    .map((m) => m.name)
    .sort();
}

describe('event type tags', () => {
  it('serverEventTypes lists every server message name, sorted', () => {
    expect([...serverEventTypes]).toEqual(messageNames('ServerEvent'));
  });

  it('clientEventTypes lists every client message name, sorted', () => {
    expect([...clientEventTypes]).toEqual(messageNames('ClientEvent'));
  });
});

describe('errorCodes', () => {
  const components = isObject(openapi.components) ? openapi.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const errorCode = isObject(schemas.ErrorCode) ? schemas.ErrorCode : {};
  const table = isObject(errorCode['x-casi-error-codes']) ? errorCode['x-casi-error-codes'] : {};

  it('has one entry per ErrorCode value', () => {
    expect(Object.keys(errorCodes).sort()).toEqual([...(errorCode.enum as string[])].sort());
  });

  it('carries the status and transient flag of x-casi-error-codes', () => {
    const expected = Object.fromEntries(
      Object.entries(table).map(([code, row]) => [
        code,
        { status: isObject(row) ? row.status : undefined, transient: isObject(row) ? row.transient : undefined },
      ]),
    );
    expect(Object.keys(expected).length).toBeGreaterThan(0);
    expect(errorCodes).toEqual(expected);
  });
});
