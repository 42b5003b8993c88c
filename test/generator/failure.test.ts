/** `describeFailure`: what an error that ends a command prints, and the exit code. */
import { describe, expect, it } from 'vitest';
import { InputError, UsageError } from '../../generator/diagnostics.js';
import { describeFailure } from '../../generator/failure.js';
import { OutputError } from '../../generator/write.js';

const diagnostic = {
  severity: 'error',
  file: `${process.cwd()}/spec/openapi.yaml`,
  line: 3,
  column: 5,
  pointer: '/info',
  message: 'Bad.',
  rule: 'casi/x',
} as const;

describe('describeFailure', () => {
  it.each<[string, { given: unknown; lines: string[]; exitCode: number }]>([
    [
      'a usage error exits 2',
      { given: new UsageError('--port must be an integer'), lines: ['casi: --port must be an integer'], exitCode: 2 },
    ],
    [
      'a spec error prints its diagnostics, then the message',
      {
        given: new InputError('the specs have errors', [diagnostic]),
        lines: ['spec/openapi.yaml:3:5 error Bad. (casi/x) at #/info', 'casi: the specs have errors'],
        exitCode: 1,
      },
    ],
    [
      'an unwritable output names it',
      { given: new OutputError('cannot write out/x'), lines: ['casi: cannot write out/x'], exitCode: 1 },
    ],
    [
      'a system error names the file',
      {
        given: Object.assign(new Error("EISDIR: illegal operation on a directory, read 'spec'"), { syscall: 'read' }),
        lines: ["casi: EISDIR: illegal operation on a directory, read 'spec'"],
        exitCode: 1,
      },
    ],
  ])('%s', (_name, { given, lines, exitCode }) => {
    expect(describeFailure(given, false)).toEqual({ lines, exitCode });
  });

  it('shows an internal error as one line of its message, cut at 300 characters, without a stack', () => {
    const error = new TypeError(`${'x'.repeat(400)}\nsecond line`);
    const { lines, exitCode } = describeFailure(error, false);
    expect(exitCode).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(`casi: ${'x'.repeat(300)}… (an internal error; run again with --debug for its stack)`);
  });

  it('shows the stack of an internal error with debug', () => {
    const error = new TypeError('boom');
    const { lines } = describeFailure(error, true);
    expect(lines[0]).toContain('TypeError: boom\n    at ');
  });
});
