/** The results of a conformance run: cases run, passed and failed per check (and per operation), as a table. */

/** One failed case, kept to show what to reproduce. */
export interface Failure {
  readonly check: string;
  readonly operation: string;
  readonly problem: string;
  /** A command that sends the failing request again (`curl …`), when the check knows it. */
  readonly replay?: string;
}

/** One row per check and operation: its counts. */
export interface ReportRow extends Counts {
  readonly check: string;
  readonly operation: string;
}

/** A kept failure and how many failed cases gave exactly the same message. */
interface FailureGroup extends Failure {
  count: number;
}

interface Counts {
  cases: number;
  failed: number;
  known: number;
}

/** A failure that is a pinned defect (`known-defects.ts`) when `matches` says so. */
export interface FailureClassifier {
  readonly id: string;
  readonly matches: (failure: Failure) => boolean;
}

/**
 * `FAIL` lines printed per check: the first failure of each operation and of each distinct outcome (the answer
 * after the last `→`) come first, so that many repeats of one problem hide no other; then the rest in order, up to
 * this many (more when more operations failed). The counts stay exact; what is left out is counted in a last line.
 */
export const PRINTED_FAILURES_PER_CHECK = 20;
/**
 * Distinct failure messages kept per check and operation (identical ones are counted, not kept again); past it, only
 * a message with a new outcome is kept, up to `KEPT_OUTCOMES_PER_OPERATION` of them.
 */
const KEPT_FAILURES_PER_OPERATION = 50;
const KEPT_OUTCOMES_PER_OPERATION = 200;

/** Collects check outcomes; failures that match a known defect are counted apart as `known`. */
export class Report {
  readonly #known: readonly FailureClassifier[];
  readonly #byCheck = new Map<string, Counts>();
  readonly #byOperation = new Map<string, Counts>();
  readonly #failures: FailureGroup[] = [];
  readonly #groups = new Map<string, FailureGroup>();
  readonly #keptPerOperation = new Map<string, { messages: number; outcomes: Set<string> }>();
  readonly #knownSeen = new Map<string, Failure>();

  constructor(knownDefects: readonly FailureClassifier[] = []) {
    this.#known = knownDefects;
  }

  /** Records one case of `check` on `operation`: passed when `problem` is undefined; `replay` resends it. */
  record(check: string, operation: string, problem?: string, replay?: string): void {
    const failure = problem === undefined ? undefined : { check, operation, problem };
    const known = failure && this.#known.find((k) => k.matches(failure));
    if (known && failure && !this.#knownSeen.has(known.id)) this.#knownSeen.set(known.id, failure);
    for (const [map, key] of [
      [this.#byCheck, check],
      [this.#byOperation, `${check}\u0000${operation}`],
    ] as const) {
      const counts = map.get(key) ?? { cases: 0, failed: 0, known: 0 };
      counts.cases++;
      if (known) counts.known++;
      else if (problem !== undefined) counts.failed++;
      map.set(key, counts);
    }
    if (problem === undefined || known) return;
    const key = `${check}\u0000${operation}\u0000${problem}`;
    const same = this.#groups.get(key);
    if (same) {
      same.count++;
      return;
    }
    const slot = `${check}\u0000${operation}`;
    const kept = this.#keptPerOperation.get(slot) ?? { messages: 0, outcomes: new Set<string>() };
    this.#keptPerOperation.set(slot, kept);
    const fresh = !kept.outcomes.has(outcome(problem)) && kept.outcomes.size < KEPT_OUTCOMES_PER_OPERATION;
    if (kept.messages >= KEPT_FAILURES_PER_OPERATION && !fresh) return;
    kept.messages++;
    kept.outcomes.add(outcome(problem));
    const group = { check, operation, problem, count: 1, ...(replay === undefined ? {} : { replay }) };
    this.#groups.set(key, group);
    this.#failures.push(group);
  }

  /** Cases run of `check`, over every operation or one. */
  cases(check: string, operation?: string): number {
    return this.#counts(check, operation).cases;
  }

  /** Failed cases of `check`, over every operation or one. */
  failed(check: string, operation?: string): number {
    return this.#counts(check, operation).failed;
  }

  /** Known defects met in this run, each with its first failure. */
  get knownDefects(): ReadonlyMap<string, Failure> {
    return this.#knownSeen;
  }

  /** The checks recorded so far, in order of first record. */
  get checks(): string[] {
    return [...this.#byCheck.keys()];
  }

  /** The distinct failures kept, in the order they first happened (identical messages once). */
  get failures(): readonly Failure[] {
    return this.#failures.map(({ check, operation, problem, replay }) => ({
      check,
      operation,
      problem,
      ...(replay === undefined ? {} : { replay }),
    }));
  }

  /** The counts of every check on every operation, in order of first record. */
  get rows(): ReportRow[] {
    return [...this.#byOperation].map(([key, counts]) => {
      const [check = '', operation = ''] = key.split('\u0000');
      return { check, operation, ...counts };
    });
  }

  /** Total failed cases over every check. */
  get totalFailed(): number {
    return [...this.#byCheck.values()].reduce((sum, c) => sum + c.failed, 0);
  }

  /** The table: one row per check with cases, passed, failed and known; then each known defect and kept failure. */
  format(): string {
    const rows = [...this.#byCheck].map(([check, c]) => [
      check,
      c.cases,
      c.cases - c.failed - c.known,
      c.failed,
      c.known,
    ]);
    const header = ['check', 'cases', 'passed', 'failed', 'known'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
    const line = (cells: readonly (string | number)[]) =>
      cells
        .map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i] ?? 0) : String(cell).padStart(widths[i] ?? 0)))
        .join('  ');
    const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)];
    for (const [id, f] of this.#knownSeen)
      out.push(`KNOWN ${id} (${f.check} ${f.operation}): ${f.problem.slice(0, 300)}`);
    for (const check of this.#byCheck.keys()) out.push(...this.#failLines(check));
    return out.join('\n');
  }

  /** The `FAIL` lines of one check (see `PRINTED_FAILURES_PER_CHECK`), then how many failed cases they leave out. */
  #failLines(check: string): string[] {
    const groups = this.#failures.filter((f) => f.check === check);
    const chosen = new Set<FailureGroup>();
    const operations = new Set<string>();
    for (const f of groups)
      if (!operations.has(f.operation)) {
        operations.add(f.operation);
        chosen.add(f);
      }
    const outcomes = new Set([...chosen].map((f) => outcome(f.problem)));
    for (const f of groups)
      if (chosen.size < PRINTED_FAILURES_PER_CHECK && !outcomes.has(outcome(f.problem))) {
        outcomes.add(outcome(f.problem));
        chosen.add(f);
      }
    for (const f of groups) if (chosen.size < PRINTED_FAILURES_PER_CHECK) chosen.add(f);
    const lines = groups
      .filter((f) => chosen.has(f))
      .map((f) => `FAIL ${f.check} ${f.operation}: ${f.problem}${f.count > 1 ? ` (${f.count} times)` : ''}`);
    const shown = groups.filter((f) => chosen.has(f)).reduce((sum, f) => sum + f.count, 0);
    const left = this.failed(check) - shown;
    if (left > 0) lines.push(`… and ${left} more failed case(s) of ${check} not shown`);
    return lines;
  }

  #counts(check: string, operation?: string): Counts {
    const key = operation === undefined ? check : `${check}\u0000${operation}`;
    return (operation === undefined ? this.#byCheck : this.#byOperation).get(key) ?? { cases: 0, failed: 0, known: 0 };
  }
}

/** What a failure message says came back: the text after its last `→` (the whole message when there is none). */
function outcome(problem: string): string {
  const at = problem.lastIndexOf(' → ');
  return at < 0 ? problem : problem.slice(at + 3);
}
