/**
 * Phone calls progress by themselves on the clock, like a test-mode payment processor: documented TEST NUMBERS
 * give each end state and each `failure_reason`; any other number is answered, has a short exchange and completes.
 */
import type { FailureReason } from '../generated/src/types.gen.js';
import type { FinalStatus, LiveConversation } from './runtime.js';
import { ScriptedAgent } from './scripted-agent.js';

/** Milliseconds between the steps of a call (ringing, answer, the caller's line, goodbye). */
export const PHONE_STEP_MS = 2000;

/** How a call to a number goes. */
export interface PhoneScenario {
  /** Whether the call is answered (it then starts: `conversation.started`, `started_at`). */
  readonly answered: boolean;
  readonly status: FinalStatus;
  readonly failureReason?: FailureReason;
}

/** The caller's line in the normal scenario. */
export const CALLER_LINE = 'I would like to check the status of my order.';
/** The caller's line in the `customer_requested_dnc` scenario. */
export const DNC_LINE = 'Please do not call me again.';

/** Failure reasons that happen once the call is answered; the others happen while dialling. */
const MID_CALL_FAILURES: ReadonlySet<FailureReason> = new Set<FailureReason>([
  'agent_timeout',
  'customer_requested_dnc',
]);

/** Failure reasons in the order of their test numbers `+15005550100` … `+15005550109`. */
export const FAILURE_REASONS: readonly FailureReason[] = [
  'dial_failed',
  'number_marked_disconnected',
  'pstn_blocked',
  'dnc_rejected',
  'tcpa_rejected',
  'number_invalid',
  'internal_error',
  'telephony_error',
  'agent_timeout',
  'customer_requested_dnc',
];

/** The test numbers and what they do. */
export const TEST_NUMBERS: Readonly<Record<string, PhoneScenario>> = {
  '+15005550001': { answered: false, status: 'busy' },
  '+15005550002': { answered: false, status: 'no-answer' },
  '+15005550003': { answered: true, status: 'voicemail' },
  ...Object.fromEntries(
    FAILURE_REASONS.map((reason, i) => [
      `+1500555010${i}`,
      { answered: MID_CALL_FAILURES.has(reason), status: 'failed', failureReason: reason },
    ]),
  ),
};

/** Any other number: answered, a short exchange, completed. */
export const DEFAULT_SCENARIO: PhoneScenario = { answered: true, status: 'completed' };

/** The scenario of a callee number. */
export function scenarioFor(callee: string): PhoneScenario {
  return TEST_NUMBERS[callee] ?? DEFAULT_SCENARIO;
}

/**
 * Schedules the call of a new phone conversation (timeline in reference/README.md): at 1 step the call is
 * answered or not; answered calls then unfold one step at a time.
 */
export function startPhoneCall(live: LiveConversation, agent: ScriptedAgent): void {
  const callee = live.record.channel.type === 'phone' ? live.record.channel.callee_no : null;
  const scenario = scenarioFor(callee ?? '');
  if (!scenario.answered) {
    live.schedule('phone-dial', PHONE_STEP_MS, (later) => later.end(outcomeOf(scenario)));
    return;
  }
  live.schedule('phone-answer', PHONE_STEP_MS, async (later) => {
    await answer(later, agent, scenario.status !== 'voicemail');
    later.schedule('phone-turn', PHONE_STEP_MS, (turn) => secondStep(turn, agent, scenario));
  });
}

async function answer(live: LiveConversation, agent: ScriptedAgent, greet: boolean): Promise<void> {
  await live.start();
  const { customer_id: customerId, channel } = live.record;
  if (customerId !== null && channel.type === 'phone' && channel.callee_no !== null) {
    await live.emit({ type: 'agent.customer.loaded', customer_id: customerId, phone_no: channel.callee_no });
  }
  if (greet) await agent.generate(live, `Hello, this is ${ScriptedAgent.displayName(live)}. How can I help you today?`);
}

async function secondStep(live: LiveConversation, agent: ScriptedAgent, scenario: PhoneScenario): Promise<void> {
  if (scenario.status === 'voicemail') {
    if (!live.record.config.channel.is_voicemail_enabled) return live.end({ status: 'voicemail' });
    await agent.generate(live, `Hello, this is ${ScriptedAgent.displayName(live)}. Please call us back.`);
    return live.end({ status: 'voicemail', endedBy: 'agent' });
  }
  if (scenario.failureReason === 'customer_requested_dnc') {
    await live.emit({ type: 'user.message.received', text: DNC_LINE });
    return live.end({ ...outcomeOf(scenario), endedBy: 'customer' });
  }
  if (scenario.status === 'failed') return live.end(outcomeOf(scenario));
  await agent.userMessage(live, CALLER_LINE);
  live.schedule('phone-goodbye', PHONE_STEP_MS, async (last) => {
    await agent.generate(last, 'Thank you for calling. Goodbye.');
    await last.end({ status: 'completed', endedBy: 'agent' });
  });
}

function outcomeOf(scenario: PhoneScenario): { status: FinalStatus; failureReason?: FailureReason } {
  return scenario.failureReason === undefined
    ? { status: scenario.status }
    : { status: scenario.status, failureReason: scenario.failureReason };
}
