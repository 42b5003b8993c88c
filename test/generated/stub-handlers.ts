/** Trivial hand-written `Handlers` for the generated server stubs: each answers its spec example and logs the call. */
import type { Handlers } from '../../generated/src/server.gen.js';
import type { Customer, Procedure, ServerEvent } from '../../generated/src/types.gen.js';
import * as v from '../../generated/src/validators.gen.js';
import { assertValid, type Validator } from '../../generated/src/validators.gen.js';
import { responseExample } from './spec.js';

/** One call that reached a handler. */
export interface Call {
  readonly operationId: string;
  readonly params: unknown;
  readonly query: unknown;
  readonly body: unknown;
}

/** A procedure id whose handler answers a body that breaks the `Procedure` schema. */
export const BROKEN_PROCEDURE = 'proc_broken';
/** A customer id whose handler answers a status the operation does not declare. */
export const TEAPOT_CUSTOMER = 'cus_teapot';

/** The server events the stream and the session send: a setup and a start. */
export const streamedEvents: readonly ServerEvent[] = [
  {
    id: 'ev_7Uh3Jt0Mo',
    created_at: '2025-07-02T14:00:00.050Z',
    agent_id: 'ca_7Qk2Lm9Xa@v1',
    livemode: true,
    conversation_id: 'conv_9Xr4Tb2Kp',
    experimental: false,
    payload: { type: 'conversation.setup', channel: { type: 'chat_realtime' }, direction: 'inbound' },
  },
  {
    id: 'ev_8Vi4Ku1Np',
    created_at: '2025-07-02T14:00:01.000Z',
    agent_id: 'ca_7Qk2Lm9Xa@v1',
    livemode: true,
    conversation_id: 'conv_9Xr4Tb2Kp',
    experimental: false,
    payload: { type: 'conversation.started' },
  },
];

/** Builds the handlers; every call is appended to `calls`. */
export function stubHandlers(calls: Call[]): Handlers {
  const record = (operationId: string, req: { params: unknown; query: unknown; body?: unknown }): void => {
    calls.push({ operationId, params: req.params, query: req.query, body: req.body });
  };
  /** A handler answering 200 with the operation's first spec example, checked (and typed) by `validator`. */
  const ok = <T>(operationId: string, validator: Validator<T>) => {
    const body = assertValid(validator, responseExample(operationId));
    return (req: { params: unknown; query: unknown; body?: unknown }) => {
      record(operationId, req);
      return { status: 200 as const, body };
    };
  };
  const procedure = ok('getProcedure', v.validateProcedure);
  const customer = ok('getCustomer', v.validateCustomer);

  return {
    createConversation: ok('createConversation', v.validateCreateConversationResponse),
    createConversationalAgent: ok('createConversationalAgent', v.validateAgentWriteResponse),
    createProceduralAgent: ok('createProceduralAgent', v.validateAgentWriteResponse),
    deleteProceduralAgent: ok('deleteProceduralAgent', v.validateDeletedResponse),
    getConversation: ok('getConversation', v.validateConversation),
    getConversationalAgent: ok('getConversationalAgent', v.validateConversationalAgent),
    getCustomer: (req) => {
      if (req.params.customer_id !== TEAPOT_CUSTOMER) return customer(req);
      record('getCustomer', req);
      const teapot = { status: 418, body: { code: 'teapot', transient: false, message: 'I am a teapot.' } };
      return teapot as unknown as { status: 200; body: Customer };
    },
    getProceduralAgent: ok('getProceduralAgent', v.validateProceduralAgent),
    getProcedure: (req) => {
      if (req.params.procedure_id !== BROKEN_PROCEDURE) return procedure(req);
      record('getProcedure', req);
      return { status: 200, body: { wrong: true } as unknown as Procedure };
    },
    injectConversationContext: ok('injectConversationContext', v.validateInjectContextResponse),
    listConversationalAgentVersions: ok('listConversationalAgentVersions', v.validateAgentVersionList),
    listConversations: ok('listConversations', v.validateConversationList),
    listProceduralAgents: ok('listProceduralAgents', v.validateProceduralAgentList),
    listProceduralAgentVersions: ok('listProceduralAgentVersions', v.validateAgentVersionList),
    listProcedures: ok('listProcedures', v.validateProcedureList),
    openConversationSession: async (req, socket) => {
      record('openConversationSession', req);
      for (const event of streamedEvents) await socket.sendJson(event);
      socket.close(1000, 'done');
    },
    refreshConversationToken: ok('refreshConversationToken', v.validateConversationToken),
    releaseConversationalAgent: ok('releaseConversationalAgent', v.validateAgentWriteResponse),
    releaseProceduralAgent: ok('releaseProceduralAgent', v.validateAgentWriteResponse),
    streamConversationEvents: async (req, stream) => {
      record('streamConversationEvents', req);
      for (const event of streamedEvents) await stream.sendJson(event, { id: event.id });
      stream.close();
      return undefined;
    },
    updateConversationalAgent: ok('updateConversationalAgent', v.validateAgentWriteResponse),
    updateProceduralAgent: ok('updateProceduralAgent', v.validateAgentWriteResponse),
  };
}
