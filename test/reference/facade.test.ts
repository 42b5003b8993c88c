/** The facade: one method per operationId of the spec, the error model, and the ids it issues. */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { errorCodes, type operations } from '../../generated/src/types.gen.js';
import { validateError } from '../../generated/src/validators.gen.js';
import { ServiceError, serviceError } from '../../reference/errors.js';
import { newId, newToken } from '../../reference/ids.js';
import type { ReferenceService } from '../../reference/service.js';
import type { FacadeOperationId, ServiceOperations } from '../../reference/service-types.js';
import { expectValid, makeService } from './helpers/fixtures.js';

const OPERATIONS: readonly FacadeOperationId[] = [
  'createConversationalAgent',
  'updateConversationalAgent',
  'getConversationalAgent',
  'listConversationalAgentVersions',
  'releaseConversationalAgent',
  'createProceduralAgent',
  'listProceduralAgents',
  'getProceduralAgent',
  'updateProceduralAgent',
  'deleteProceduralAgent',
  'listProceduralAgentVersions',
  'releaseProceduralAgent',
  'createConversation',
  'listConversations',
  'getConversation',
  'injectConversationContext',
  'refreshConversationToken',
  'getCustomer',
  'listProcedures',
  'getProcedure',
];

describe('ReferenceService', () => {
  it('has a method for every operationId but the stream, the session and the webhook', () => {
    expectTypeOf<ReferenceService>().toExtend<ServiceOperations>();
    expectTypeOf<FacadeOperationId>().toEqualTypeOf<
      Exclude<keyof operations, 'streamConversationEvents' | 'openConversationSession' | 'receiveConversationSetup'>
    >();
    const t = makeService();
    for (const name of OPERATIONS) expect(typeof t.service[name]).toBe('function');
    expect(typeof t.service.openEventStream).toBe('function');
    expect(typeof t.service.openSession).toBe('function');
    t.service.close();
  });
});

describe('ServiceError', () => {
  it.each(Object.entries(errorCodes))('%s carries its status and transient flag and a valid body', (code, entry) => {
    const error = serviceError(
      code as keyof typeof errorCodes,
      'Something happened.',
      code === 'invalid_request' ? [] : undefined,
    );
    expect(error).toMatchObject({ status: entry.status, transient: entry.transient, code });
    expectValid(validateError, error.toBody());
    expect('data' in error.toBody()).toBe(code === 'invalid_request');
  });

  it('refuses a status that does not match the code table', () => {
    expect(() => new ServiceError(400, 'not_found', 'x')).toThrow(TypeError);
    expect(new ServiceError(404, 'not_found', 'x').toBody()).toEqual({
      code: 'not_found',
      transient: false,
      message: 'x',
    });
  });
});

describe('ids', () => {
  it('are prefixed base62 and unguessable tokens are long', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId('conv')));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^conv_[A-Za-z0-9]{14}$/);
    expect(newToken()).toMatch(/^ct_[A-Za-z0-9]{43}$/);
    for (const prefix of ['ca', 'pa', 'cus', 'ev', 'proc', 'gen', 'call'] as const) {
      expect(newId(prefix)).toMatch(new RegExp(`^${prefix}_[A-Za-z0-9]+$`));
    }
  });
});
