/** The reference server's domain: the transport-free emulator of the service, and what its HTTP layer needs. */
export type { Credentials, KeyPrincipal, Principal, TokenPrincipal } from './auth.js';
export { MemoryEventBus } from './bus/memory.js';
export { type EventBus, EventLogClosedError, type Subscription } from './bus/types.js';
export { type Clock, FakeClock, systemClock, type TimerHandle } from './clock.js';
export {
  type ApiKey,
  CONFIG_DEFAULTS,
  ConfigError,
  isLoopback,
  type LoadedConfig,
  loadConfig,
  type ReferenceConfig,
} from './config.js';
export { ServiceError, type ServiceErrorBody, serviceError } from './errors.js';
export { CALLER_LINE, DNC_LINE, FAILURE_REASONS, PHONE_STEP_MS, TEST_NUMBERS } from './phone.js';
export { PROCEDURE_STEP_MS } from './procedures.js';
export { ReferenceService, type ReferenceServiceOptions, type ServiceSettings, type Session } from './service.js';
export type { RequestContext, ServiceMethod, ServiceOperations } from './service-types.js';
export { createMemoryStore, MemoryCollection } from './store/memory.js';
export type { Collection, ListQuery, Store } from './store/types.js';
export type { EventStreamOpening } from './streams.js';
export { webhookSignature } from './webhook.js';
