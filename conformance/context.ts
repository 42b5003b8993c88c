/** What every contract check of a run shares: the spec, the server, the report, known ids and good requests. */
import type fc from 'fast-check';
import type { IrOperation } from '../generator/ir/model.js';
import type { Fixtures } from './fixtures.js';
import type { Report } from './report.js';
import type { RequestParts } from './requests.js';
import type { ConformanceSpec } from './spec.js';
import type { Target } from './target.js';

/** The shared state of one conformance run. */
export interface ContractContext {
  readonly spec: ConformanceSpec;
  readonly target: Target;
  readonly report: Report;
  readonly fixtures: Fixtures;
  /** Known ids in place of id schemas (`idOverrides`). */
  readonly overrides: Readonly<Record<string, fc.Arbitrary<unknown>>>;
  /** Generated cases per operation. */
  readonly runs: number;
  /** The fast-check seed of every generated sample of the run (printed, to replay a failure). */
  readonly seed: number;
  /** For each operation, a generated request that got a 2xx answer: the base of mutations and of the auth checks. */
  readonly goodRequests: Map<string, RequestParts>;
}

/** The HTTP operations first, deletions last (so that deleting a fixture spoils no other operation's cases). */
export function orderedOperations(spec: ConformanceSpec): IrOperation[] {
  const rank = (op: IrOperation) => (op.method === 'delete' ? 1 : 0);
  return [...spec.ir.operations].sort((a, b) => rank(a) - rank(b));
}
