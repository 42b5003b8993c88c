/**
 * Emits the precompiled validators: ajv standalone code bundled into ESM modules with no `require` and no
 * `new Function` (`*.raw.gen.ts`), each wrapped by a typed module with one `Validator` per schema and message.
 * Each schema is compiled with `allErrors` (every problem listed). A schema that tries alternatives on valid values
 * (`triesAlternatives`) is also compiled to stop at the first problem: that check gives the verdict, and the
 * `allErrors` function runs only for a refused value, to list its issues. The error objects of ajv's code are
 * rewritten to be those issues (`withIssueObjects`).
 */
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { build } from 'esbuild';
import { type StatementStructures, StructureKind, VariableDeclarationKind } from 'ts-morph';
import type { Ir } from '../../ir/model.js';
import { TOOLKIT_ROOT } from '../../options.js';
import { createAjv, FORMATS_BINDING, schemaId, shareCompiledAjv, validatableSchemas } from '../../schema/ajv.js';
import { triesAlternatives } from '../../schema/alternatives.js';
import { type EmittedFile, withHeader } from '../shared/files.js';
import { createProject, emitTypeScript, literal } from '../shared/ts.js';
import { withAnyOfStoppingAtFirstPass } from './any-of.js';
import {
  withErrorsDroppedByPop,
  withIssueObjects,
  withoutErrorListsInVerdicts,
  withoutPathsInVerdicts,
  withoutUnusedSchemas,
} from './issues.js';
import { withLengthsCountedOnlyWhenNeeded } from './lengths.js';
import { withoutNeedlessUnicodeFlag } from './patterns.js';

const standaloneCode = standaloneCodeModule as unknown as typeof standaloneCodeModule.default;

/** The exported name of the validator of `name`. */
export function validatorName(name: string): string {
  return `validate${name}`;
}

/** The exported name, in the raw module, of the check of `name` that stops at the first problem. */
function checkName(name: string): string {
  return `check${name}`;
}

/** The module the standalone code imports its formats from, relative to `src/`. */
const FORMATS_MODULE = './runtime/shared/formats.js';

/** The envelopes the client validates; they also get a module of their own, small enough for browser bundles. */
const EVENT_ENVELOPES = ['ServerEvent', 'ClientEvent'];

/**
 * Builds the validator modules: `validators` (every schema, message and request part, and the registry) and
 * `validators.events` (the two event envelopes only, which the client imports).
 */
export async function emitValidators(ir: Ir): Promise<EmittedFile[]> {
  const components = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  const entries = validatableSchemas(ir, { requests: true }).map((e) => ({
    ...e,
    check: triesAlternatives(e.schema, components),
  }));
  const ajv = {
    full: createAjv(ir, { standalone: true }),
    fast: createAjv(ir, { standalone: true, allErrors: false }),
  };
  const events = entries.filter((e) => EVENT_ENVELOPES.includes(e.name));
  const files = [
    ...(await validatorModule(ajv, 'validators', entries, true)),
    ...(await validatorModule(ajv, 'validators.events', events, false)),
  ];
  // Every schema is compiled now: the check of the spec's examples validates with them.
  shareCompiledAjv(ir, ajv.full);
  return files;
}

/** The schemas of a module, each with whether it gets a check that stops at the first problem. */
type Entries = (ReturnType<typeof validatableSchemas>[number] & { check: boolean })[];
type Ajv = ReturnType<typeof createAjv>;

/** ajv standalone ESM of `entries` under `name(entry)`, importing the formats object when it uses one. */
function standaloneModule(ajv: Ajv, entries: Entries, name: (schema: string) => string): string {
  const esm = standaloneCode(ajv, Object.fromEntries(entries.map((e) => [name(e.name), schemaId(e.name)])));
  return esm.includes(FORMATS_BINDING) ? `import { formats as ${FORMATS_BINDING} } from 'casi:formats';\n${esm}` : esm;
}

/**
 * One module pair: `<base>.raw.gen.ts` (ajv standalone code of just `entries`, both compilations, bundled into
 * one module) and its typed `<base>.gen.ts`, with the registry of validators by name when `registry` is set.
 */
async function validatorModule(
  ajv: { full: Ajv; fast: Ajv },
  base: string,
  entries: Entries,
  registry: boolean,
): Promise<EmittedFile[]> {
  const sources: Record<string, string> = { full: standaloneModule(ajv.full, entries, validatorName) };
  const checked = entries.filter((e) => e.check);
  if (checked.length > 0) sources.fast = standaloneModule(ajv.fast, checked, checkName);
  const exported = Object.keys(sources);
  // Both compilations import the formats through this module, so that the bundle imports them once.
  sources.formats = `export { formats } from ${JSON.stringify(FORMATS_MODULE)};`;
  const bundled = await build({
    stdin: {
      contents: exported.map((name) => `export * from 'casi:${name}';\n`).join(''),
      resolveDir: TOOLKIT_ROOT,
      loader: 'js',
      sourcefile: `${base}.raw.gen.ts`,
    },
    // The toolkit's own ajv, and the paths in the bundle's comments, whatever the working directory.
    absWorkingDir: TOOLKIT_ROOT,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    legalComments: 'none',
    write: false,
    plugins: [
      {
        name: 'casi-standalone',
        setup(build) {
          build.onResolve({ filter: /^casi:/ }, (args) => ({ path: args.path.slice(5), namespace: 'casi' }));
          build.onResolve({ filter: /formats\.js$/ }, (args) =>
            args.path === FORMATS_MODULE ? { path: args.path, external: true } : undefined,
          );
          build.onLoad({ filter: /.*/, namespace: 'casi' }, (args) => ({
            contents: sources[args.path],
            loader: 'js',
            resolveDir: TOOLKIT_ROOT,
          }));
        },
      },
    ],
  });
  return [
    // ajv's output, its errors issues: type-checking it would add nothing, and `fromCompiled` gives it its types.
    withHeader(`src/${base}.raw.gen.ts`, `// @ts-nocheck\n${rewritten(bundled.outputFiles[0]?.text ?? '')}`),
    emitTypeScript(
      createProject(),
      `src/${base}.gen.ts`,
      validatorStatements(`./${base}.raw.gen.js`, entries, registry),
    ),
  ];
}

/** The bundled module of the checks (`sources.fast`): they give verdicts only, their errors are never read. */
const VERDICT_MODULE = 'casi:fast';

/** The bundled ajv code after every pass, each of which fails on code it does not recognise. */
function rewritten(esm: string): string {
  let code = withoutDeadState(esm);
  code = withIssueObjects(code, VERDICT_MODULE);
  code = withoutPathsInVerdicts(code, VERDICT_MODULE);
  code = withoutErrorListsInVerdicts(code, VERDICT_MODULE);
  code = withErrorsDroppedByPop(code);
  code = withAnyOfStoppingAtFirstPass(code);
  code = withoutUnusedSchemas(code);
  code = withoutNeedlessUnicodeFlag(code);
  code = withLengthsCountedOnlyWhenNeeded(code);
  return inClosure(code);
}

/** The second parameter of every ajv function: options of which these schemas only ever read `instancePath`. */
const OPTIONS =
  'data, { instancePath = "", parentData, parentDataProperty, rootData = data, dynamicAnchors = {} } = {})';
/** A call of one ajv function from another, passing the options object (`instancePath` alone or with a value). */
const CALL =
  /\b(validate\d+)\(([^()]*?), \{ instancePath(?:: ([^{}]*?))?, parentData(?:: [^{},]*)?, parentDataProperty(?:: [^{},]*)?, rootData, dynamicAnchors \}\)/g;
/** What each ajv function does first for `unevaluatedProperties`/`unevaluatedItems`, and what it records for them. */
const EVALUATED = [
  /\n {2}const evaluated0 = validate\d+\.evaluated;\n {2}if \(evaluated0\.dynamicProps\) \{\n {4}evaluated0\.props = void 0;\n {2}\}\n {2}if \(evaluated0\.dynamicItems\) \{\n {4}evaluated0\.items = void 0;\n {2}\}/g,
  /\n {2}evaluated0\.(?:props|items) = (?:props|items)\d+;/g,
  /\nvalidate\d+\.evaluated = \{[^\n]*\};/g,
];

/**
 * ajv's bundled code without the state these schemas never read, so that each call does less. Ajv2020 always
 * compiles for `$dynamicRef` and `unevaluated*`: every function takes an options object (`parentData`,
 * `rootData`, `dynamicAnchors`, read by keywords the specs do not use) and each call of one function from another
 * allocates it; here the functions take `instancePath` alone. And every function reads and writes its
 * `evaluated` record, which only `unevaluatedProperties`/`unevaluatedItems` consult: when the code has neither
 * keyword, the record goes. Any form this does not recognise fails the generation, rather than half a rewrite.
 */
export function withoutDeadState(esm: string): string {
  const functions = esm.match(/\bfunction validate\d+\(/g)?.length ?? 0;
  let code = esm.replaceAll(OPTIONS, 'data, instancePath = "")');
  if (code.split('instancePath = "")').length - 1 !== functions)
    throw new Error('an ajv function with unexpected parameters in the bundled validators');
  code = code.replace(
    CALL,
    (_, callee: string, data: string, path?: string) => `${callee}(${data}, ${path ?? 'instancePath'})`,
  );
  const left = /\b(?:parentData|parentDataProperty|rootData|dynamicAnchors)\b/.exec(code);
  if (left)
    throw new Error(`ajv options left in the bundled validators: ${code.slice(left.index - 80, left.index + 80)}`);
  if (/unevaluated(?:Properties|Items)|\$dynamicRef/.test(code)) return code;
  for (const pattern of EVALUATED) code = code.replace(pattern, '');
  const evaluated = /\bevaluated\d*\b/.exec(code);
  if (evaluated)
    throw new Error(
      `ajv's evaluated record left in the bundled validators: ${code.slice(evaluated.index - 80, evaluated.index + 80)}`,
    );
  return code;
}

/**
 * The bundled module `esm` with its body moved into a function: its imports and one `export { … }` stay at the top
 * level, every other binding becomes a local of the function. The code is unchanged, but V8 runs it faster there:
 * ajv's functions refer to themselves (`validate20.errors = …`, `validate20.evaluated`) and to each other, and a
 * load of a module-scope binding costs more in optimized code than one of a function's (5–10 % of a validation).
 * Bundlers could not drop unused validators of the flat module either (its top level assigns properties).
 */
export function inClosure(esm: string): string {
  const imports: string[] = [];
  const exports: { local: string; name: string }[] = [];
  const body: string[] = [];
  const lines = esm.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^import\s/.test(line)) {
      if (!line.trimEnd().endsWith(';')) throw new Error(`a multi-line import in the bundled validators: ${line}`);
      imports.push(line);
    } else if (line === 'export {') {
      for (i++; lines[i] !== '};'; i++) {
        const spec = /^\s*([\w$]+)(?:\s+as\s+([\w$]+))?,?$/.exec(lines[i] ?? '');
        if (!spec?.[1]) throw new Error(`an unexpected export in the bundled validators: ${lines[i]}`);
        exports.push({ local: spec[1], name: spec[2] ?? spec[1] });
      }
    } else if (/^export\s/.test(line)) {
      throw new Error(`an unexpected export in the bundled validators: ${line}`);
    } else {
      body.push(line);
    }
  }
  const names = exports.map((e) => e.name).join(', ');
  const returned = exports.map((e) => (e.local === e.name ? e.name : `${e.name}: ${e.local}`)).join(', ');
  return [
    ...imports,
    `const { ${names} } = /* @__PURE__ */ (() => {`,
    ...body,
    `return { ${returned} };`,
    '})();',
    `export { ${names} };`,
    '',
  ].join('\n');
}

/** The typed validators module: one `Validator` per entry, and the registry. */
function validatorStatements(rawModule: string, entries: Entries, registry: boolean): StatementStructures[] {
  const file: StatementStructures[] = [];
  file.push({
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier: rawModule,
    namespaceImport: 'raw',
  });
  file.push({
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier: './runtime/shared/validation.js',
    namedImports: ['fromCompiled'],
  });
  file.push({
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier: './runtime/shared/validation.js',
    namedImports: ['CompiledValidate', 'Validator'],
    isTypeOnly: true,
  });
  file.push({
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier: './types.gen.js',
    namespaceImport: 'types',
    isTypeOnly: true,
  });
  file.push({ kind: StructureKind.ExportDeclaration, moduleSpecifier: './runtime/shared/validation.js' });
  for (const { name, kind, check } of entries) {
    const type = kind === 'request' ? 'unknown' : `types.${name}`;
    const checkArgument = check ? `, raw.${checkName(name)} as CompiledValidate` : '';
    file.push({
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [`Validates ${KIND_TEXT[kind]} \`${name}\`; \`errors\` holds the issues of the last call.`],
      declarations: [
        {
          name: validatorName(name),
          type: `Validator<${type}>`,
          initializer: `/* @__PURE__ */ fromCompiled<${type}>(raw.${validatorName(name)} as CompiledValidate, ${literal(name)}${checkArgument})`,
        },
      ],
    });
  }
  if (!registry) return file;
  file.push({
    kind: StructureKind.VariableStatement,
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ['Every validator of a component schema or message, by name.'],
    declarations: [
      {
        name: 'validators',
        initializer: `{\n${entries
          .filter((e) => e.kind !== 'request')
          .map((e) => `  ${e.name}: ${validatorName(e.name)},`)
          .join('\n')}\n} as const`,
      },
    ],
  });
  file.push({
    kind: StructureKind.TypeAlias,
    name: 'SchemaName',
    isExported: true,
    type: 'keyof typeof validators',
    docs: ['Every validatable name.'],
  });
  return file;
}

const KIND_TEXT = { schema: 'a value of the schema', message: 'a message', request: 'the request part' } as const;
