/** The handlers of every operation: each REST one calls the service method of the same name and answers 200. */
import type { Handlers } from '../../generated/src/server.gen.js';
import type { Principal } from '../auth.js';
import type { ReferenceService } from '../service.js';
import { baseUrlOf } from './base-url.js';
import { asHttpError } from './errors.js';
import { eventStreamHandler } from './events-stream.js';
import type { PendingSessions } from './pending-sessions.js';
import { sessionHandler } from './session.js';

/** A 200 answer with the service's result; a `ServiceError` becomes the matching `HttpError`. */
async function ok<T>(call: () => Promise<T>): Promise<{ readonly status: 200; readonly body: T }> {
  try {
    return { status: 200, body: await call() };
  } catch (error) {
    throw asHttpError(error);
  }
}

/** Builds the `Handlers` of the generated server over `service`. */
export function createHandlers(service: ReferenceService, sessions: PendingSessions): Handlers<Principal> {
  const s = service;
  return {
    createConversationalAgent: (r) => ok(() => s.createConversationalAgent(r.auth, r.params, r.query, r.body)),
    updateConversationalAgent: (r) => ok(() => s.updateConversationalAgent(r.auth, r.params, r.query, r.body)),
    getConversationalAgent: (r) => ok(() => s.getConversationalAgent(r.auth, r.params, r.query, r.body)),
    listConversationalAgentVersions: (r) =>
      ok(() => s.listConversationalAgentVersions(r.auth, r.params, r.query, r.body)),
    releaseConversationalAgent: (r) => ok(() => s.releaseConversationalAgent(r.auth, r.params, r.query, r.body)),
    createProceduralAgent: (r) => ok(() => s.createProceduralAgent(r.auth, r.params, r.query, r.body)),
    listProceduralAgents: (r) => ok(() => s.listProceduralAgents(r.auth, r.params, r.query, r.body)),
    getProceduralAgent: (r) => ok(() => s.getProceduralAgent(r.auth, r.params, r.query, r.body)),
    updateProceduralAgent: (r) => ok(() => s.updateProceduralAgent(r.auth, r.params, r.query, r.body)),
    deleteProceduralAgent: (r) => ok(() => s.deleteProceduralAgent(r.auth, r.params, r.query, r.body)),
    listProceduralAgentVersions: (r) => ok(() => s.listProceduralAgentVersions(r.auth, r.params, r.query, r.body)),
    releaseProceduralAgent: (r) => ok(() => s.releaseProceduralAgent(r.auth, r.params, r.query, r.body)),
    createConversation: (r) =>
      ok(() => s.createConversation(r.auth, r.params, r.query, r.body, { baseUrl: baseUrlOf(r.raw) })),
    listConversations: (r) => ok(() => s.listConversations(r.auth, r.params, r.query, r.body)),
    getConversation: (r) => ok(() => s.getConversation(r.auth, r.params, r.query, r.body)),
    injectConversationContext: (r) => ok(() => s.injectConversationContext(r.auth, r.params, r.query, r.body)),
    refreshConversationToken: (r) => ok(() => s.refreshConversationToken(r.auth, r.params, r.query, r.body)),
    getCustomer: (r) => ok(() => s.getCustomer(r.auth, r.params, r.query, r.body)),
    listProcedures: (r) => ok(() => s.listProcedures(r.auth, r.params, r.query, r.body)),
    getProcedure: (r) => ok(() => s.getProcedure(r.auth, r.params, r.query, r.body)),
    streamConversationEvents: eventStreamHandler(service),
    openConversationSession: sessionHandler(service, sessions),
  };
}
