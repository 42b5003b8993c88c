/** What a conformance run prints and writes: the summary with replays, JUnit XML and JSON. */
import type { Report } from './report.js';

/** The run's setting, as the outputs name it. */
export interface RunInfo {
  readonly target: string;
  readonly runs: number;
  readonly seed: number;
  /** Why the run ended early, if it did. */
  readonly stopped?: string | undefined;
}

/** Longest replay printed in the summary (a body over the size limit is not). */
const MAX_SHOWN_REPLAY = 4000;

/** The table per check, the `FAIL` lines, and the first failing request of each failing check as a `curl` command. */
export function summary(report: Report): string {
  const lines = [report.format()];
  for (const check of report.checks) {
    const first = report.failures.find((f) => f.check === check && f.replay !== undefined);
    if (first?.replay === undefined) continue;
    const shown =
      first.replay.length <= MAX_SHOWN_REPLAY
        ? first.replay
        : `(a command of ${first.replay.length} characters: --json FILE keeps it)`;
    lines.push(`REPLAY ${check} ${first.operation}: ${shown}`);
  }
  lines.push(`${report.totalFailed === 0 ? 'PASS' : 'FAIL'}: ${report.totalFailed} failed case(s)`);
  return lines.join('\n');
}

/** Text made safe for an XML attribute or text node (characters XML 1.0 cannot hold are dropped). */
function xml(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/**
 * JUnit XML: one `testsuite` per check, one `testcase` per operation it ran on; a failed one holds a `failure` with
 * its first problems and its replay.
 */
export function junitXml(report: Report, info: RunInfo): string {
  const rows = report.rows;
  const failures = report.failures;
  const suites = report.checks.map((check) => {
    const cases = rows.filter((r) => r.check === check);
    const body = cases.map((row) => {
      const name = `${check} ${row.operation}`;
      const attrs = `classname="casi.conformance.${xml(check)}" name="${xml(name)}"`;
      if (row.failed === 0) return `    <testcase ${attrs}/>`;
      const mine = failures.filter((f) => f.check === check && f.operation === row.operation);
      const text = mine
        .slice(0, 5)
        .map((f) => `${f.problem}${f.replay ? `\nreplay: ${f.replay}` : ''}`)
        .join('\n\n');
      const message = `${row.failed} of ${row.cases} case(s) failed`;
      return `    <testcase ${attrs}>\n      <failure message="${xml(message)}">${xml(text)}</failure>\n    </testcase>`;
    });
    const failed = cases.filter((r) => r.failed > 0).length;
    return `  <testsuite name="${xml(check)}" tests="${cases.length}" failures="${failed}">\n${body.join('\n')}\n  </testsuite>`;
  });
  const tests = rows.length;
  const failed = rows.filter((r) => r.failed > 0).length;
  const name = `casi conformance ${info.target} (seed ${info.seed})`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${xml(name)}" tests="${tests}" failures="${failed}">\n${suites.join('\n')}\n</testsuites>\n`;
}

/** The run as JSON: its setting, the counts per check and every kept failure with its replay. */
export function jsonReport(report: Report, info: RunInfo): string {
  const checks = report.checks.map((check) => ({
    check,
    cases: report.cases(check),
    failed: report.failed(check),
    passed:
      report.cases(check) -
      report.failed(check) -
      report.rows.filter((r) => r.check === check).reduce((n, r) => n + r.known, 0),
  }));
  return `${JSON.stringify(
    {
      target: info.target,
      runs: info.runs,
      seed: info.seed,
      passed: report.totalFailed === 0 && info.stopped === undefined,
      ...(info.stopped === undefined ? {} : { stopped: info.stopped }),
      checks,
      failures: report.failures,
    },
    null,
    2,
  )}\n`;
}
