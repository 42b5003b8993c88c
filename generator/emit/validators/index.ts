/**
 * Emits the precompiled validators: ajv's standalone code, as ajv writes it, bundled by esbuild with the few ajv
 * runtime helpers it requires into ESM modules with no `require` and no `new Function` (`*.raw.gen.ts`), each
 * wrapped by a typed module with one `Validator` per schema and message. Every schema is compiled with `allErrors`
 * (every problem listed); a schema that tries alternatives on valid values (`triesAlternatives`) is also compiled
 * to stop at its first problem, and its validator runs that check first and the `allErrors` function only for a
 * refused value (`fromCompiled`).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, posix } from 'node:path';
import type standalone from 'ajv/dist/standalone/index.js';
import { build, type Plugin } from 'esbuild';
import type { StatementStructures } from 'ts-morph';
import type { Ir } from '../../ir/model.js';
import { requirePackage } from '../../require-package.js';
import {
  createAjv,
  FORMATS_BINDING,
  PATTERN_BINDING,
  schemaId,
  sharedAjv,
  validatableSchemas,
} from '../../schema/ajv.js';
import { triesAlternatives } from '../../schema/alternatives.js';
import { type EmittedFile, withHeader } from '../shared/files.js';
import {
  emitTypeScript,
  literal,
  propertyName,
  StructureKind,
  type TypeScriptFile,
  VariableDeclarationKind,
} from '../shared/ts.js';

// ajv's standalone module is CommonJS, with its function as the default export.
const standaloneCode = (requirePackage('ajv/dist/standalone') as typeof standalone).default;

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
export async function emitValidators(ir: Ir): Promise<(EmittedFile | TypeScriptFile)[]> {
  const components = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  const entries = validatableSchemas(ir, { requests: true }).map((e) => ({
    ...e,
    check: triesAlternatives(e.schema, components),
  }));
  const full = sharedAjv(ir);
  const ajv = { full, fast: createAjv(ir, { standalone: true, allErrors: false, checked: true }) };
  const events = entries.filter((e) => EVENT_ENVELOPES.includes(e.name));
  const modules = await Promise.all([
    validatorModule(ajv, 'validators', entries, true),
    validatorModule(ajv, 'validators.events', events, false),
  ]);
  return modules.flat();
}

/** The schemas of a module, each with whether it gets a check that stops at the first problem. */
type Entries = (ReturnType<typeof validatableSchemas>[number] & { check: boolean })[];
type Ajv = ReturnType<typeof createAjv>;

/** ajv standalone ESM of `entries` under `name(entry)`, importing the formats and the pattern engine it uses. */
function standaloneModule(ajv: Ajv, entries: Entries, name: (code: string) => string): string {
  const esm = standaloneCode(ajv, Object.fromEntries(entries.map((e) => [name(e.code), schemaId(e.name)])));
  const used = [
    ['formats', FORMATS_BINDING],
    ['patternRegExp', PATTERN_BINDING],
  ].filter(([, binding]) => esm.includes(binding as string));
  if (used.length === 0) return esm;
  return `import { ${used.map(([value, binding]) => `${value} as ${binding}`).join(', ')} } from 'casi:formats';\n${esm}`;
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
): Promise<(EmittedFile | TypeScriptFile)[]> {
  const sources: Record<string, string> = { full: standaloneModule(ajv.full, entries, validatorName) };
  const checked = entries.filter((e) => e.check);
  if (checked.length > 0) sources.fast = standaloneModule(ajv.fast, checked, checkName);
  const exported = Object.keys(sources);
  // Both compilations import the formats through this module, so that the bundle imports them once.
  sources.formats = `export { formats, patternRegExp } from ${JSON.stringify(FORMATS_MODULE)};`;
  const bundled = await build({
    stdin: {
      contents: exported.map((name) => `export * from 'casi:${name}';\n`).join(''),
      loader: 'js',
      sourcefile: `${base}.raw.gen.ts`,
    },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    legalComments: 'none',
    write: false,
    plugins: [standaloneSources(sources), packagesByName()],
  });
  return [
    // ajv's output: type-checking it would add nothing, and `fromCompiled` gives it its types.
    withHeader(`src/${base}.raw.gen.ts`, `// @ts-nocheck\n${bundled.outputFiles[0]?.text ?? ''}`),
    emitTypeScript(`src/${base}.gen.ts`, validatorStatements(`./${base}.raw.gen.js`, entries, registry)),
  ];
}

/** Serves the standalone modules as `casi:<name>`; the formats module stays an import of the package's runtime. */
function standaloneSources(sources: Record<string, string>): Plugin {
  return {
    name: 'casi-standalone',
    setup(build) {
      build.onResolve({ filter: /^casi:/ }, (args) => ({ path: args.path.slice(5), namespace: 'casi' }));
      build.onResolve({ filter: /formats\.js$/ }, (args) =>
        args.path === FORMATS_MODULE ? { path: args.path, external: true } : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: 'casi' }, (args) => ({ contents: sources[args.path], loader: 'js' }));
    },
  };
}

/**
 * Resolves what the standalone code requires (ajv's runtime helpers) as Node does from the toolkit, but names each
 * module by its specifier, so that the bundle does not depend on where `node_modules` is on disk.
 */
function packagesByName(): Plugin {
  const requireHere = createRequire(import.meta.url);
  const files = new Map<string, string>();
  return {
    name: 'casi-packages-by-name',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        const from = args.namespace === 'package' ? files.get(args.importer) : undefined;
        files.set(args.path, requireHere.resolve(args.path, from ? { paths: [dirname(from)] } : undefined));
        return { path: args.path, namespace: 'package' };
      });
      build.onResolve({ filter: /^\./, namespace: 'package' }, (args) => {
        const path = posix.join(posix.dirname(args.importer), args.path);
        files.set(path, createRequire(files.get(args.importer) ?? '').resolve(args.path));
        return { path, namespace: 'package' };
      });
      build.onLoad({ filter: /.*/, namespace: 'package' }, (args) => ({
        contents: readFileSync(files.get(args.path) ?? args.path, 'utf8'),
        loader: 'js',
      }));
    },
  };
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
  for (const { name, code, kind, check } of entries) {
    const type = kind === 'request' ? 'unknown' : `types.${code}`;
    file.push({
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [`Validates ${KIND_TEXT[kind]} \`${name}\`; \`errors\` holds the issues of the last call.`],
      declarations: [
        {
          name: validatorName(code),
          type: `Validator<${type}>`,
          initializer: `/* @__PURE__ */ fromCompiled<${type}>(${compiledArguments(name, code, check)})`,
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
          .map((e) => `  ${propertyName(e.name)}: ${validatorName(e.code)},`)
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

/** The arguments of `fromCompiled` for `name`: its `allErrors` function, its name, and its check when it has one. */
function compiledArguments(name: string, code: string, check: boolean): string {
  const functions = [`raw.${validatorName(code)}`, ...(check ? [`raw.${checkName(code)}`] : [])];
  const [full, first] = functions.map((f) => `${f} as CompiledValidate`);
  return [full, literal(name), ...(first ? [first] : [])].join(', ');
}

const KIND_TEXT = { schema: 'a value of the schema', message: 'a message', request: 'the request part' } as const;
