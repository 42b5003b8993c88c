/**
 * The transport-free logic of a WebSocket session: each client frame is checked (JSON, known type, schema, the
 * 4096-character text limit, not after the end) and either performed or answered by a `server.error`.
 *
 * A `server.error` answering one socket's frame goes to that socket only: it is not appended to the shared
 * history (the SSE stream and other sockets never see it, and nothing follows `conversation.ended` there). Its id
 * is registered as a mark at the current end of the log, so that resuming after it (`last_event_id`) replays
 * exactly what followed. Every other server event reaches every subscriber alike.
 */
import {
  type ClientEvent,
  type ClientEventType,
  clientEventTypes,
  type ErrorCode,
  type ServerErrorEvent,
} from '../generated/src/types.gen.js';
import {
  type Validator,
  validateClientEvent,
  validateConversationContextUpdate,
  validateConversationEnd,
  validateConversationStart,
  validateUserMessageSend,
} from '../generated/src/validators.gen.js';
import type { EventBus } from './bus/types.js';
import { isoNow } from './clock.js';
import { ServiceError, serviceError } from './errors.js';
import { buildEvent } from './events.js';
import { isPlainObject } from './merge.js';
import type { ConversationRuntime, LiveConversation } from './runtime.js';
import type { ScriptedAgent } from './scripted-agent.js';

/** Longest client event `id` echoed as `source_event_id` (the `ClientEvent` schema's limit). */
const MAX_CLIENT_EVENT_ID = 128;

const PAYLOAD_VALIDATORS: Readonly<Record<ClientEventType, Validator<unknown>>> = {
  'conversation.context.update': validateConversationContextUpdate,
  'conversation.end': validateConversationEnd,
  'conversation.start': validateConversationStart,
  'user.message.send': validateUserMessageSend,
};

/** A refused frame: the code and message of the `server.error` that answers it. */
class FrameError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Handles the client frames of conversations' sessions. */
export class SessionFrames {
  constructor(
    private readonly runtime: ConversationRuntime,
    private readonly agent: ScriptedAgent,
    private readonly bus: EventBus,
  ) {}

  /**
   * Handles one frame of `conversationId`'s session. Returns null when the client event was performed (its
   * server events reach every subscriber through the log), or the `server.error` to send to this socket only. A
   * session that may not write (`writable` false: a read-only key) has every frame refused as `forbidden`.
   */
  async handleClientFrame(
    conversationId: string,
    text: string,
    binary = false,
    writable = true,
  ): Promise<ServerErrorEvent | null> {
    const checked = writable ? checkFrame(text, binary) : forbiddenFrame(text);
    return this.runtime.use(conversationId, async (live) => {
      const refusal = 'refusal' in checked ? checked.refusal : await this.tryPerform(live, checked.event);
      return refusal === null ? null : this.refuse(live, refusal, checked.sourceId);
    });
  }

  /** Performs the event; a refusal when the conversation has ended or the event does not apply. */
  private async tryPerform(live: LiveConversation, event: ClientEvent): Promise<FrameError | null> {
    if (live.ended) return new FrameError('conversation_ended', `Conversation ${live.record.id} has ended.`);
    try {
      await this.perform(live, event);
      return null;
    } catch (error) {
      if (error instanceof ServiceError) return new FrameError(error.code, error.message);
      throw error;
    }
  }

  private async perform(live: LiveConversation, event: ClientEvent): Promise<void> {
    const { payload } = event;
    const queuedCall = live.record.channel_type === 'phone' && live.record.status === 'queued';
    switch (payload.type) {
      case 'conversation.start':
        if (queuedCall) throw phoneNotAnswered();
        if (await live.start()) this.agent.started(live);
        return;
      case 'user.message.send':
        if (queuedCall) throw phoneNotAnswered();
        return this.agent.userMessage(live, payload.text);
      case 'conversation.context.update':
        await live.mergeContext(payload.data, false);
        return this.agent.contextUpdated(live, payload.data, false);
      case 'conversation.end':
        // A chat ended before it began starts first, so `conversation.started` precedes `conversation.ended`; a phone
        // call not yet answered is hung up, and ends without starting as an unanswered call does.
        if (!queuedCall) await live.start();
        return live.end({ status: 'completed', endedBy: 'customer' });
    }
  }

  /** The `server.error` for this socket only, its id marked in the log. */
  private async refuse(live: LiveConversation, refusal: FrameError, sourceId: string | undefined) {
    const event = buildEvent(
      live.record,
      {
        type: 'server.error',
        error: `${refusal.code}: ${refusal.message}`,
        ...(sourceId === undefined ? {} : { source_event_id: sourceId }),
      },
      isoNow(this.runtime.deps.clock),
    ) as ServerErrorEvent;
    await this.bus.mark(live.record.id, event.id);
    return event;
  }
}

function phoneNotAnswered(): ServiceError {
  return serviceError('invalid_request', 'A phone conversation starts when the call is answered.');
}

/** A checked frame: the client event, or the refusal; and the event's `id` when it has a usable one. */
type CheckedFrame =
  | { readonly event: ClientEvent; readonly sourceId: string | undefined }
  | { readonly refusal: FrameError; readonly sourceId: string | undefined };

/** Every frame of a read-only session: refused, naming its `id` when it has a usable one. */
function forbiddenFrame(text: string): CheckedFrame {
  let sourceId: string | undefined;
  try {
    sourceId = parseFrame(text, false).sourceId;
  } catch {
    // Not JSON: refused all the same, with no id to name.
  }
  return {
    refusal: new FrameError('forbidden', 'This API key is read-only: it may watch the session, not write.'),
    sourceId,
  };
}

function checkFrame(text: string, binary: boolean): CheckedFrame {
  let sourceId: string | undefined;
  try {
    const parsed = parseFrame(text, binary);
    sourceId = parsed.sourceId;
    if (binary) throw binaryFrame();
    return { event: checkClientEvent(parsed.value), sourceId };
  } catch (error) {
    if (error instanceof FrameError) return { refusal: error, sourceId };
    throw error;
  }
}

/**
 * The frame as JSON, and the client event's `id` when it has a usable one. A binary frame is refused, with the
 * `id` of the client event it carries when its bytes are one in JSON (so the refusal names its source).
 */
function parseFrame(text: string, binary: boolean): { value: unknown; sourceId: string | undefined } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (binary) throw binaryFrame();
    throw new FrameError('malformed_json', 'The frame is not JSON.');
  }
  const id = isPlainObject(value) ? value.id : undefined;
  const usable = typeof id === 'string' && id.length > 0 && id.length <= MAX_CLIENT_EVENT_ID;
  return { value, sourceId: usable ? id : undefined };
}

function binaryFrame(): FrameError {
  return new FrameError('invalid_request', 'Send client events as JSON text frames, not binary frames.');
}

/** The client event, or a `FrameError` naming the first problem (unknown type, then payload, then envelope). */
function checkClientEvent(value: unknown): ClientEvent {
  const payload = isPlainObject(value) ? value.payload : undefined;
  const type = isPlainObject(payload) ? payload.type : undefined;
  if (!isClientEventType(type)) {
    const shown = typeof type === 'string' ? type : JSON.stringify(type ?? null);
    throw new FrameError(
      'invalid_request',
      `Unknown client event type ${shown}; expected one of ${clientEventTypes.join(', ')}.`,
    );
  }
  const validator = PAYLOAD_VALIDATORS[type];
  if (!validator(payload)) throw schemaError(validator, '/payload');
  if (!validateClientEvent(value)) throw schemaError(validateClientEvent, '');
  return value;
}

function isClientEventType(type: unknown): type is ClientEventType {
  return typeof type === 'string' && (clientEventTypes as readonly string[]).includes(type);
}

function schemaError(validator: Validator<unknown>, prefix: string): FrameError {
  const issue = validator.errors?.[0];
  const where = `${prefix}${issue?.pointer ?? ''}` || '/';
  return new FrameError('invalid_request', `${where}: ${issue?.message ?? `does not match ${validator.schemaName}`}`);
}
