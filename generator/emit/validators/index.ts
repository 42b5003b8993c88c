/**
 * Emits the precompiled validators: ajv standalone code bundled into ESM modules with no `require` and no
 * `new Function` (`*.raw.gen.ts`), each wrapped by a typed module with one `Validator` per schema and message.
 */
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { buildSync } from 'esbuild';
import { type StatementStructures, StructureKind, VariableDeclarationKind } from 'ts-morph';
import type { Ir } from '../../ir/model.js';
import { createAjv, schemaId, validatableSchemas } from '../../schema/ajv.js';
import { type EmittedFile, withHeader } from '../shared/files.js';
import { createProject, emitTypeScript, literal } from '../shared/ts.js';

const standaloneCode = standaloneCodeModule as unknown as typeof standaloneCodeModule.default;

/** The exported name of the validator of `name`. */
export function validatorName(name: string): string {
  return `validate${name}`;
}

/** The envelopes the client validates; they also get a module of their own, small enough for browser bundles. */
const EVENT_ENVELOPES = ['ServerEvent', 'ClientEvent'];

/**
 * Builds the validator modules: `validators` (every schema, message and request part, and the registry) and
 * `validators.events` (the two event envelopes only, which the client imports).
 */
export function emitValidators(ir: Ir): EmittedFile[] {
  const entries = validatableSchemas(ir, { requests: true });
  const ajv = createAjv(ir, { standalone: true });
  const events = entries.filter((e) => EVENT_ENVELOPES.includes(e.name));
  return [
    ...validatorModule(ajv, 'validators', entries, true),
    ...validatorModule(ajv, 'validators.events', events, false),
  ];
}

type Entries = ReturnType<typeof validatableSchemas>;

/** One module pair: `<base>.raw.gen.ts` (ajv standalone code of just `entries`, bundled) and its typed `<base>.gen.ts`. */
function validatorModule(
  ajv: ReturnType<typeof createAjv>,
  base: string,
  entries: Entries,
  registry: boolean,
): EmittedFile[] {
  const esm = standaloneCode(ajv, Object.fromEntries(entries.map((e) => [validatorName(e.name), schemaId(e.name)])));
  const bundled = buildSync({
    stdin: { contents: esm, resolveDir: process.cwd(), loader: 'js', sourcefile: `${base}.raw.gen.ts` },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    legalComments: 'none',
    write: false,
  });
  return [
    // Plain ajv output: type-checking it would add nothing, and `fromAjv` gives it its types.
    withHeader(`src/${base}.raw.gen.ts`, `// @ts-nocheck\n${bundled.outputFiles[0]?.text ?? ''}`),
    emitTypeScript(
      createProject(),
      `src/${base}.gen.ts`,
      validatorStatements(`./${base}.raw.gen.js`, entries, registry),
    ),
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
    namedImports: ['fromAjv'],
  });
  file.push({
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier: './runtime/shared/validation.js',
    namedImports: ['AjvValidateLike', 'Validator'],
    isTypeOnly: true,
  });
  file.push({
    kind: StructureKind.ImportDeclaration,
    moduleSpecifier: './types.gen.js',
    namespaceImport: 'types',
    isTypeOnly: true,
  });
  file.push({ kind: StructureKind.ExportDeclaration, moduleSpecifier: './runtime/shared/validation.js' });
  for (const { name, kind } of entries) {
    file.push({
      kind: StructureKind.VariableStatement,
      isExported: true,
      declarationKind: VariableDeclarationKind.Const,
      docs: [`Validates ${KIND_TEXT[kind]} \`${name}\`; \`errors\` holds the issues of the last call.`],
      declarations: [
        {
          name: validatorName(name),
          type: `Validator<${kind === 'request' ? 'unknown' : `types.${name}`}>`,
          initializer: `/* @__PURE__ */ fromAjv<${kind === 'request' ? 'unknown' : `types.${name}`}>(raw.${validatorName(name)} as AjvValidateLike, ${literal(name)})`,
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
