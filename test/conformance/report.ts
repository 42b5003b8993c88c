/** The results of a conformance run: cases run, passed and failed per check (and per operation), as a table. */

/** One failed case, kept to show what to reproduce. */
export interface Failure {
  readonly check: string;
  readonly operation: string;
  readonly problem: string;
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

/** Most failures kept per check (the counts stay exact). */
const KEPT_FAILURES_PER_CHECK = 20;

/** Collects check outcomes; failures that match a known defect are counted apart as `known`. */
export class Report {
  readonly #known: readonly FailureClassifier[];
  readonly #byCheck = new Map<string, Counts>();
  readonly #byOperation = new Map<string, Counts>();
  readonly #failures: Failure[] = [];
  readonly #knownSeen = new Map<string, Failure>();

  constructor(knownDefects: readonly FailureClassifier[] = []) {
    this.#known = knownDefects;
  }

  /** Records one case of `check` on `operation`: passed when `problem` is undefined. */
  record(check: string, operation: string, problem?: string): void {
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
    if (this.#failures.filter((f) => f.check === check).length < KEPT_FAILURES_PER_CHECK)
      this.#failures.push({ check, operation, problem });
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

  /** The failures kept (at most 20 per check). */
  get failures(): readonly Failure[] {
    return this.#failures;
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
    for (const f of this.#failures) out.push(`FAIL ${f.check} ${f.operation}: ${f.problem}`);
    return out.join('\n');
  }

  #counts(check: string, operation?: string): Counts {
    const key = operation === undefined ? check : `${check}\u0000${operation}`;
    return (operation === undefined ? this.#byCheck : this.#byOperation).get(key) ?? { cases: 0, failed: 0, known: 0 };
  }
}
