/**
 * Emits the precompiled validators: ajv standalone code bundled into ESM modules with no `require` and no
 * `new Function` (`*.raw.gen.ts`), each wrapped by a typed module with one `Validator` per schema and message.
 * Each schema is compiled with `allErrors` (every problem listed). A schema that tries alternatives on valid values
 * (`triesAlternatives`) is also compiled to stop at the first problem: the `allErrors` function runs that check
 * first (`withVerdictFirst`) and goes on only for a refused value, to list its issues. The error objects of ajv's
 * code are rewritten to be those issues (`withIssueObjects`).
 */
import { build } from 'esbuild';
import type { StatementStructures } from 'ts-morph';
import type { Ir } from '../../ir/model.js';
import { TOOLKIT_ROOT } from '../../options.js';
import { packages } from '../../packages.js';
import { createAjv, FORMATS_BINDING, schemaId, shareCompiledAjv, validatableSchemas } from '../../schema/ajv.js';
import { triesAlternatives } from '../../schema/alternatives.js';
import { emitPackages } from '../packages.js';
import { type EmittedFile, withHeader } from '../shared/files.js';
import { emitTypeScript, literal } from '../shared/ts.js';
import { rewritten } from './rewrite.js';

const { StructureKind, VariableDeclarationKind } = emitPackages.tsMorph;

// ajv is CommonJS with a default export.
const standaloneCode = packages.ajvStandalone.default;

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
    // The same schemas: `full` has checked them against the meta-schema.
    fast: createAjv(ir, { standalone: true, allErrors: false, validated: true }),
  };
  const events = entries.filter((e) => EVENT_ENVELOPES.includes(e.name));
  // esbuild bundles the two modules at once.
  const files = (
    await Promise.all([
      validatorModule(ajv, 'validators', entries, true),
      validatorModule(ajv, 'validators.events', events, false),
    ])
  ).flat();
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
    emitTypeScript(`src/${base}.gen.ts`, validatorStatements(`./${base}.raw.gen.js`, entries, registry)),
  ];
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
  // The package's validators entry also gives `ValidationError` and `assertValid`. The events module, which the client
  // loads with `import()`, does not: its chunk then needs no error classes of its own (see shared/errors.ts).
  if (registry) file.push({ kind: StructureKind.ExportDeclaration, moduleSpecifier: './runtime/shared/errors.js' });
  for (const { name, kind } of entries) {
    const type = kind === 'request' ? 'unknown' : `types.${name}`;
    file.push({
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [`Validates ${KIND_TEXT[kind]} \`${name}\`; \`errors\` holds the issues of the last call.`],
      declarations: [
        {
          name: validatorName(name),
          type: `Validator<${type}>`,
          initializer: `/* @__PURE__ */ fromCompiled<${type}>(raw.${validatorName(name)} as CompiledValidate, ${literal(name)})`,
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
