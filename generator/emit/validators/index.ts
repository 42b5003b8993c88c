/**
 * Emits the precompiled validators: ajv's standalone code, as ajv writes it, in ES modules that import the formats
 * and the few ajv runtime helpers it requires from the package's runtime (`*.raw.gen.ts`, no `new Function`), each
 * wrapped by a typed module with one `Validator` per schema and message. Every schema is compiled with `allErrors`
 * (every problem listed); a schema that tries alternatives on valid values (`triesAlternatives`) is also compiled
 * to stop at its first problem, and its validator runs that check first and the `allErrors` function only for a
 * refused value (`fromCompiled`).
 */
import type standalone from 'ajv/dist/standalone/index.js';
import type { StatementStructures } from 'ts-morph';
import { AJV_RUNTIME_MODULES } from '../../../templates/shared/ajv-runtime.js';
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

/** The envelopes the client validates; they also get a module of their own, small enough for browser bundles. */
const EVENT_ENVELOPES = ['ServerEvent', 'ClientEvent'];

/**
 * Builds the validator modules: `validators` (every schema, message and request part, and the registry) and
 * `validators.events` (the two event envelopes only, which the client imports).
 */
export function emitValidators(ir: Ir): (EmittedFile | TypeScriptFile)[] {
  const components = new Map(ir.schemas.map((s) => [s.name, s.schema]));
  const entries = validatableSchemas(ir, { requests: true }).map((e) => ({
    ...e,
    check: triesAlternatives(e.schema, components),
  }));
  const full = sharedAjv(ir);
  const ajv = { full, fast: createAjv(ir, { standalone: true, allErrors: false, checked: true }) };
  const events = entries.filter((e) => EVENT_ENVELOPES.includes(e.name));
  return [
    ...validatorModule(ajv, 'validators', entries, true),
    ...validatorModule(ajv, 'validators.events', events, false),
  ];
}

/** The schemas of a module, each with whether it gets a check that stops at the first problem. */
type Entries = (ReturnType<typeof validatableSchemas>[number] & { check: boolean })[];
type Ajv = ReturnType<typeof createAjv>;

/** The modules the standalone code imports, relative to `src/`: the formats, and the helpers ajv's code requires. */
const FORMATS_MODULE = './runtime/shared/formats.js';
const AJV_RUNTIME_MODULE = './runtime/shared/ajv-runtime.js';

/**
 * ajv standalone ESM of `entries` under `name(entry)`, as ajv writes it, after the imports it needs: the formats and
 * the pattern engine under the names ajv's code gives them, and `ajvRuntime` as the `require` its code calls.
 */
function standaloneModule(ajv: Ajv, entries: Entries, name: (code: string) => string): string {
  const esm = standaloneCode(ajv, Object.fromEntries(entries.map((e) => [name(e.code), schemaId(e.name)])));
  const formats = [
    ['formats', FORMATS_BINDING],
    ['patternRegExp', PATTERN_BINDING],
  ].filter(([, binding]) => esm.includes(binding as string));
  const imports = [];
  if (formats.length > 0) {
    imports.push(`import { ${formats.map(([v, b]) => `${v} as ${b}`).join(', ')} } from '${FORMATS_MODULE}';`);
  }
  const required = new Set([...esm.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1] as string));
  const unknown = [...required].filter((m) => !AJV_RUNTIME_MODULES.includes(m));
  if (unknown.length > 0)
    throw new Error(`the validators' code requires ${unknown.join(', ')}, which casi does not ship`);
  if (required.size > 0) imports.push(`import { ajvRuntime as require } from '${AJV_RUNTIME_MODULE}';`);
  return `${imports.map((line) => `${line}\n`).join('')}${esm}\n`;
}

/**
 * One module group: `<base>.raw.gen.ts` (ajv's standalone code of `entries`, every problem listed), with
 * `<base>.checks.raw.gen.ts` (the checks that stop at the first problem) where an entry has one, and the typed
 * `<base>.gen.ts`, with the registry of validators by name when `registry` is set.
 */
function validatorModule(
  ajv: { full: Ajv; fast: Ajv },
  base: string,
  entries: Entries,
  registry: boolean,
): (EmittedFile | TypeScriptFile)[] {
  // ajv's output: type-checking it would add nothing, and `fromCompiled` gives it its types.
  const raw = (path: string, code: string) => withHeader(path, `// @ts-nocheck\n${code}`);
  const files = [raw(`src/${base}.raw.gen.ts`, standaloneModule(ajv.full, entries, validatorName))];
  const checked = entries.filter((e) => e.check);
  if (checked.length > 0)
    files.push(raw(`src/${base}.checks.raw.gen.ts`, standaloneModule(ajv.fast, checked, checkName)));
  return [...files, emitTypeScript(`src/${base}.gen.ts`, validatorStatements(base, entries, registry))];
}

/** The typed validators module: one `Validator` per entry, and the registry. */
function validatorStatements(base: string, entries: Entries, registry: boolean): StatementStructures[] {
  const file: StatementStructures[] = [];
  file.push({ kind: StructureKind.ImportDeclaration, moduleSpecifier: `./${base}.raw.gen.js`, namespaceImport: 'raw' });
  if (entries.some((e) => e.check)) {
    file.push({
      kind: StructureKind.ImportDeclaration,
      moduleSpecifier: `./${base}.checks.raw.gen.js`,
      namespaceImport: 'checks',
    });
  }
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
  const functions = [`raw.${validatorName(code)}`, ...(check ? [`checks.${checkName(code)}`] : [])];
  const [full, first] = functions.map((f) => `${f} as CompiledValidate`);
  return [full, literal(name), ...(first ? [first] : [])].join(', ');
}

const KIND_TEXT = { schema: 'a value of the schema', message: 'a message', request: 'the request part' } as const;
