/**
 * The `casi` command line: generate, check, validate, schemas, serve, conformance, diff, release. Exit codes: 0 ok, 1 failure,
 * 2 usage.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yargs, { type Arguments } from 'yargs';
import { hideBin } from 'yargs/helpers';
import { UsageError } from './diagnostics.js';
import { describeFailure } from './failure.js';
import { TOOLKIT_ROOT } from './options.js';

// Command modules load their heavy dependencies (parsers, ajv, ts-morph) only when their command runs.

/** Each document is optional; naming neither uses spec/openapi.yaml and spec/asyncapi.yaml, whichever exist. */
const specOptions = {
  openapi: {
    type: 'string',
    describe: 'An OpenAPI 3.0 or 3.1 document (default: spec/openapi.yaml, if neither is given)',
  },
  asyncapi: {
    type: 'string',
    describe: 'An AsyncAPI 2.6 or 3.x document (default: spec/asyncapi.yaml, if neither is given)',
  },
} as const;

const COMMANDS = 'generate, check, validate, schemas, serve, conformance, diff or release';
/** Positional arguments, which yargs gives as values too (`validate`'s FILE; its `-` arrives as ""). */
const POSITIONALS = new Set(['file']);
/** The options that go without a command. */
const TOP_LEVEL = new Set(['help', 'h', 'version', 'debug']);

/** The toolkit's version, from its package.json (`casi --version`). */
function toolkitVersion(): string {
  return (JSON.parse(readFileSync(join(TOOLKIT_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

let exitCode = 0;

/** `--debug` or CASI_DEBUG=1: an internal error is printed with its stack. */
const DEBUG = process.argv.includes('--debug') || process.env.CASI_DEBUG === '1';

/** Runs a command and records its exit code; an error becomes a message (see describeFailure). */
async function run(command: () => Promise<number>): Promise<void> {
  try {
    exitCode = await command();
  } catch (error) {
    const failure = describeFailure(error, DEBUG);
    for (const line of failure.lines) process.stderr.write(`${line}\n`);
    exitCode = failure.exitCode;
  }
}

/**
 * Refuses, as usage errors, what yargs lets through: an option given twice (yargs makes a list of it), an option
 * with an empty value (`--out ""`, or `--schema` last with no value), and, before a command is named, an
 * unknown option (which yargs would report as a missing command).
 */
function checkValues(argv: Arguments): void {
  for (const [key, value] of Object.entries(argv)) {
    if (key === '_' || key === '$0' || POSITIONALS.has(key)) continue;
    const name = `${key.length === 1 ? '-' : '--'}${key}`;
    if (argv._.length === 0 && !TOP_LEVEL.has(key))
      throw new UsageError(`unknown option ${name}; name a command: ${COMMANDS}`);
    if (Array.isArray(value)) throw new UsageError(`${name} was given more than once`);
    if (value === '') throw new UsageError(`${name} needs a value`);
  }
}

/** Ends with a usage error (exit 2). */
function refuse(message: string): never {
  process.stderr.write(`casi: ${message}\nRun \`casi --help\` for usage.\n`);
  process.exit(2);
}

/** `--port`: a string to yargs, so that `--port ""` and a bare `--port` are not taken for 0 or left unset. */
function parsePort(port: string | undefined): number | undefined {
  if (port === undefined) return undefined;
  if (/^\d{1,5}$/.test(port) && Number(port) <= 65_535) return Number(port);
  throw new UsageError('--port must be an integer from 0 to 65535');
}

await yargs(hideBin(process.argv))
  .scriptName('casi')
  .usage('$0 <command> [options]\n\nSpec-first toolkit for the Conversational Agent Service Interface.')
  .command({
    command: 'generate',
    describe:
      'Check the documents as `casi check` does, without its style rules, and generate types, validators, client and server stubs into the output folder',
    builder: (y) =>
      y.options({
        ...specOptions,
        out: { type: 'string', default: 'generated', describe: 'The output folder (a publishable package)' },
        name: {
          type: 'string',
          describe: "The package's name (default: info.x-casi-package-name, else the title in kebab case)",
        },
        check: {
          type: 'boolean',
          default: false,
          describe: 'Write nothing; exit 1 and name the stale files if the output is out of date',
        },
        watch: {
          type: 'boolean',
          default: false,
          describe: 'Regenerate whenever a spec or a template changes (Ctrl-C to stop)',
        },
      }),
    handler: (argv) => run(async () => (await import('./commands/generate.js')).runGenerate(argv)),
  })
  .command({
    command: 'check',
    describe:
      'Validate both documents, style rules included (generate leaves those out); exit 1 with file:line diagnostics on any error',
    builder: (y) =>
      y.options({
        ...specOptions,
        fix: {
          type: 'boolean',
          default: false,
          describe:
            "First add, in place, what the event lists lack: a message's payload in its union and mapping, a new message in the channels and operations that list the others",
        },
      }),
    handler: (argv) => run(async () => (await import('./commands/check.js')).runCheck(argv)),
  })
  .command({
    command: 'validate [file]',
    describe: 'Validate one JSON document (FILE, or - for standard input) against a schema or message',
    builder: (y) =>
      y
        .options({
          ...specOptions,
          schema: { type: 'string', demandOption: true, describe: 'A schema or message name (see `casi schemas`)' },
        })
        .positional('file', { type: 'string', describe: 'The JSON file; - or nothing reads standard input' }),
    handler: (argv) =>
      run(async () => (await import('./commands/validate.js')).runValidate({ ...argv, file: argv.file })),
  })
  .command({
    command: 'schemas',
    describe: 'List every schema and message name that `validate --schema` accepts',
    builder: (y) => y.options(specOptions),
    handler: (argv) => run(async () => (await import('./commands/validate.js')).runSchemas(argv)),
  })
  .command({
    command: 'serve',
    describe:
      'Run the reference server (a stateful emulator of the service); with --openapi or --asyncapi, serve that spec from its examples and schemas',
    builder: (y) =>
      y
        .options({
          openapi: { type: 'string', describe: 'Serve this OpenAPI document instead of the reference server' },
          asyncapi: { type: 'string', describe: 'Its AsyncAPI document, if any' },
          port: { type: 'string', describe: 'Port to listen on, 0 to 65535 (default: $PORT or 4010)' },
          host: { type: 'string', describe: 'Address to bind (default: $HOST or 127.0.0.1)' },
        })
        .epilog(
          'State: CASI_DATABASE_URL — unset: an embedded database in .casi/ under the current folder; file:PATH: one at PATH; memory: in memory only; postgres://…: a PostgreSQL server, which several instances may share (README, "Reference server").',
        )
        .check(({ port }) => {
          parsePort(port);
          return true;
        }),
    handler: (argv) =>
      run(async () => {
        if (argv.openapi !== undefined || argv.asyncapi !== undefined) {
          const { serveSpec } = await import('../reference/any-spec/serve.js');
          return serveSpec({ ...argv, port: parsePort(argv.port) });
        }
        const { serve } = await import('../reference/main.js');
        return serve({ port: parsePort(argv.port), host: argv.host });
      }),
  })
  .command({
    command: 'conformance',
    describe:
      'Check a running server against the spec: examples, generated valid and invalid requests, every answer checked',
    builder: (y) =>
      y.options({
        ...specOptions,
        'base-url': {
          type: 'string',
          describe: 'The server under test (default, for this service only: an in-process reference server)',
        },
        auth: {
          type: 'string',
          describe:
            'The credential: bearer:TOKEN, basic:USER:PASS, header:NAME=VALUE, query:NAME=VALUE or apikey:VALUE',
        },
        auth2: {
          type: 'string',
          describe: 'A second identity, in the same forms: what --auth creates must not be readable with it',
        },
        'api-key': {
          type: 'string',
          describe: "This service's spec: a write key of the server (as --auth bearer:KEY)",
        },
        'read-key': { type: 'string', describe: "This service's spec: a read-only key, for the auth matrix" },
        'other-org-key': { type: 'string', describe: "This service's spec: another organisation's write key" },
        runs: { type: 'string', describe: 'Generated cases per operation (default: $CONFORMANCE_RUNS or 200)' },
        seed: {
          type: 'string',
          describe: 'The fast-check seed, to replay a run (default: $CONFORMANCE_SEED or random)',
        },
        junit: { type: 'string', describe: 'Write the results as JUnit XML to this file' },
        json: { type: 'string', describe: 'Write the results as JSON to this file' },
      }),
    handler: (argv) => run(async () => (await import('../conformance/command.js')).runConformance(argv)),
  })
  .command({
    command: 'diff',
    describe: 'List the changes since an older version of the documents, each breaking or non-breaking',
    builder: (y) =>
      y.options({
        ...specOptions,
        base: {
          type: 'string',
          demandOption: true,
          describe: 'The old version: a git ref (HEAD~1, a tag) or a folder with openapi.yaml and asyncapi.yaml',
        },
        'fail-on': { type: 'string', choices: ['breaking'], describe: 'Exit 1 when any change is breaking' },
        json: { type: 'boolean', default: false, describe: 'Print the changes as JSON' },
      }),
    handler: (argv) =>
      run(async () =>
        (await import('./commands/diff.js')).runDiff({ ...argv, base: argv.base, failOn: argv['fail-on'] }),
      ),
  })
  .command({
    command: 'release',
    describe:
      "Raise the spec's info.version by semver from the changes since the last release, regenerate, and write CHANGELOG.md",
    builder: (y) =>
      y.options({
        ...specOptions,
        base: { type: 'string', describe: 'The last release: a git ref or folder (default: the newest casi-v* tag)' },
        out: { type: 'string', default: 'generated', describe: 'The output folder (a publishable package)' },
      }),
    handler: (argv) => run(async () => (await import('./commands/release.js')).runRelease(argv)),
  })
  .middleware((argv) => {
    try {
      checkValues(argv);
    } catch (error) {
      refuse((error as Error).message);
    }
  }, true)
  .option('debug', { type: 'boolean', global: true, describe: 'Print the stack of an internal error' })
  .demandCommand(1, `Name a command: ${COMMANDS}.`)
  .recommendCommands()
  .strictCommands()
  .strict()
  .help()
  .alias('help', 'h')
  .version(toolkitVersion())
  .wrap(Math.min(110, process.stdout.columns || 110))
  .fail((message, error) => {
    if (error && !(error instanceof UsageError)) throw error;
    refuse(error?.message ?? message);
  })
  .parseAsync();

process.exitCode = exitCode;
