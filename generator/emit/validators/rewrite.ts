/** The passes over ajv's bundled code, in the order they run. */
import { withAnyOfStoppingAtFirstPass } from './any-of.js';
import { inClosure } from './closure.js';
import { withoutDeadState } from './dead-state.js';
import {
  withErrorsDroppedByPop,
  withIssueObjects,
  withoutErrorListsInVerdicts,
  withoutPathsInVerdicts,
  withoutUnusedSchemas,
} from './issues.js';
import { withLengthsCountedOnlyWhenNeeded } from './lengths.js';
import { withoutNeedlessUnicodeFlag } from './patterns.js';
import { withVerdictFirst } from './verdict-first.js';

/** The bundled module of the checks (`sources.fast`): they give verdicts only, their errors are never read. */
const VERDICT_MODULE = 'casi:fast';

/** The bundled ajv code after every pass, each of which fails on code it does not recognise. */
export function rewritten(esm: string): string {
  let code = withoutDeadState(esm);
  code = withIssueObjects(code, VERDICT_MODULE);
  code = withoutPathsInVerdicts(code, VERDICT_MODULE);
  code = withoutErrorListsInVerdicts(code, VERDICT_MODULE);
  code = withErrorsDroppedByPop(code);
  code = withAnyOfStoppingAtFirstPass(code);
  code = withoutUnusedSchemas(code);
  code = withoutNeedlessUnicodeFlag(code);
  code = withLengthsCountedOnlyWhenNeeded(code);
  code = withVerdictFirst(code);
  return inClosure(code);
}
