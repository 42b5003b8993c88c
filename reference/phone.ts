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

/** One step of a call, run under the conversation's lock; a step names the next (`schedulePhoneStep`). */
type PhoneStep = (live: LiveConversation, agent: ScriptedAgent) => Promise<void>;

/** The scenario of the conversation's callee. */
function scenarioOf(live: LiveConversation): PhoneScenario {
  const channel = live.record.channel;
  return scenarioFor(channel.type === 'phone' ? (channel.callee_no ?? '') : '');
}

/**
 * The steps of a call by timer name: each is found again from its name alone (a timer resumed after a restart), and
 * does nothing when run again after it ran (a timer whose claimer died): it checks the state it moves from.
 */
const PHONE_STEPS: Readonly<Record<string, PhoneStep>> = {
  'phone-dial': (live) => live.end(outcomeOf(scenarioOf(live))),
  'phone-answer': async (live, agent) => {
    if (!(await live.start())) return;
    await answer(live, agent, scenarioOf(live).status !== 'voicemail');
    schedulePhoneStep(live, agent, 'phone-turn');
  },
  'phone-turn': (live, agent) => secondStep(live, agent, scenarioOf(live)),
  'phone-goodbye': async (live, agent) => {
    await agent.generate(live, 'Thank you for calling. Goodbye.');
    await live.end({ status: 'completed', endedBy: 'agent' });
  },
};

/** The step of a call a timer of this name runs; undefined when the name is no step of a call. */
export function phoneStep(name: string): PhoneStep | undefined {
  return Object.hasOwn(PHONE_STEPS, name) ? PHONE_STEPS[name] : undefined;
}

/** Runs the step `name` one step from now. */
function schedulePhoneStep(live: LiveConversation, agent: ScriptedAgent, name: string): void {
  const step = PHONE_STEPS[name];
  if (step !== undefined) live.schedule(name, PHONE_STEP_MS, (later) => step(later, agent));
}

/**
 * Schedules the call of a new phone conversation (timeline in reference/README.md): at 1 step the call is
 * answered or not; answered calls then unfold one step at a time.
 */
export function startPhoneCall(live: LiveConversation, agent: ScriptedAgent): void {
  schedulePhoneStep(live, agent, scenarioOf(live).answered ? 'phone-answer' : 'phone-dial');
}

/** What follows the start of an answered call: the customer loaded, the greeting. */
async function answer(live: LiveConversation, agent: ScriptedAgent, greet: boolean): Promise<void> {
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
    if (!(await callerSaid(live, DNC_LINE))) await live.emit({ type: 'user.message.received', text: DNC_LINE });
    return live.end({ ...outcomeOf(scenario), endedBy: 'customer' });
  }
  if (scenario.status === 'failed') return live.end(outcomeOf(scenario));
  if (await callerSaid(live, CALLER_LINE)) return;
  await agent.userMessage(live, CALLER_LINE);
  schedulePhoneStep(live, agent, 'phone-goodbye');
}

/** True when the caller's line `text` is in the log already (the step that says it ran). */
async function callerSaid(live: LiveConversation, text: string): Promise<boolean> {
  const events = await live.events();
  return events.some((event) => event.payload.type === 'user.message.received' && event.payload.text === text);
}

function outcomeOf(scenario: PhoneScenario): { status: FinalStatus; failureReason?: FailureReason } {
  return scenario.failureReason === undefined
    ? { status: scenario.status }
    : { status: scenario.status, failureReason: scenario.failureReason };
}
