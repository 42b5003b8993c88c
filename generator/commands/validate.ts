/** `casi validate` and `casi schemas`: validate one JSON document against a named schema or message. */
import { readFile } from 'node:fs/promises';
import type { Ajv, ErrorObject } from 'ajv';
import { issuesFromAjv } from '../../templates/shared/validation.js';
import { formatDiagnostic, InputError, UsageError } from '../diagnostics.js';
import { buildIr } from '../ir/build.js';
import type { Ir } from '../ir/model.js';
import { loadSpecs } from '../load/index.js';
import { resolveOptions } from '../options.js';
import { createAjv, schemaId, validatableSchemas } from '../schema/ajv.js';
import { parseJsonText } from './json-text.js';

async function model(args: { openapi?: string | undefined; asyncapi?: string | undefined }): Promise<Ir> {
  const options = resolveOptions(args);
  return buildIr(await loadSpecs(options.openapi, options.asyncapi));
}

/**
 * The specs cannot be used to validate (unreadable, or a schema ajv cannot compile, such as one with a `$ref` to
 * nothing): prints what `casi check` finds wrong with them, as file:line diagnostics, then what failed; exit 2, since
 * 1 means the document is invalid.
 */
async function cannotValidate(
  args: { openapi?: string | undefined; asyncapi?: string | undefined },
  error: unknown,
): Promise<number> {
  let reason = error instanceof Error ? error.message : String(error);
  let diagnostics = error instanceof InputError ? error.diagnostics : [];
  if (!(error instanceof InputError)) {
    try {
      const { loadAndCheck } = await import('../pipeline.js');
      diagnostics = (await loadAndCheck(resolveOptions(args))).diagnostics.filter((d) => d.severity === 'error');
      if (diagnostics.length > 0) reason = `the specs have errors (${reason})`;
    } catch (checkError) {
      if (checkError instanceof InputError) ({ diagnostics } = checkError);
    }
  }
  for (const d of diagnostics) process.stderr.write(`${formatDiagnostic(d)}\n`);
  process.stderr.write(`casi: cannot validate: ${reason.replace(/\s+/g, ' ')}\n`);
  return 2;
}

/** Prints every validatable name, one per line. */
export async function runSchemas(args: {
  openapi?: string | undefined;
  asyncapi?: string | undefined;
}): Promise<number> {
  const ir = await model(args);
  process.stdout.write(
    `${validatableSchemas(ir)
      .map((s) => s.name)
      .join('\n')}\n`,
  );
  return 0;
}

/**
 * Returns 0 and prints `valid`, or 1 and one `pointer: message` line per problem (or `file:line:column: not JSON:
 * …`), or 2 when the specs cannot be used (with the check's diagnostics). Usage errors throw UsageError.
 */
export async function runValidate(args: {
  openapi?: string | undefined;
  asyncapi?: string | undefined;
  schema: string;
  file?: string;
}): Promise<number> {
  let ir: Ir;
  try {
    ir = await model(args);
  } catch (error) {
    return cannotValidate(args, error);
  }
  const names = validatableSchemas(ir).map((s) => s.name);
  if (!names.includes(args.schema)) {
    const close = closestNames(args.schema, names);
    throw new UsageError(
      `unknown schema "${args.schema}"${close.length ? `; did you mean ${close.join(', ')}?` : ''} (\`casi schemas\` lists them all)`,
    );
  }
  const source = args.file && args.file !== '-' ? args.file : '<stdin>';
  const parsed = parseJsonText(await readInput(args.file));
  if (!parsed.ok) {
    process.stdout.write(`${source}:${parsed.line}:${parsed.column}: not JSON: ${parsed.message}\n`);
    return 1;
  }
  const data = parsed.value;
  let ajv: Ajv;
  let validate: ReturnType<Ajv['getSchema']>;
  try {
    ajv = createAjv(ir, { standalone: false, verbose: true });
    validate = ajv.getSchema(schemaId(args.schema));
  } catch (error) {
    return cannotValidate(args, error);
  }
  if (!validate) return cannotValidate(args, new Error(`ajv has no schema ${args.schema}`));
  if (validate(data)) {
    process.stdout.write('valid\n');
    return 0;
  }
  const errors = (validate.errors ?? []).map((e) =>
    e.keyword === 'discriminator' ? { ...e, params: { ...e.params, allowedTags: tagValues(ajv, e) } } : e,
  );
  for (const issue of issuesFromAjv(errors, data))
    process.stdout.write(`${issue.pointer || '/'}: ${issue.message} (${issue.keyword})\n`);
  return 1;
}

async function readInput(file: string | undefined): Promise<string> {
  if (file && file !== '-') {
    return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new UsageError(`cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
    });
  }
  if (process.stdin.isTTY) throw new UsageError('give a FILE, or pipe the JSON document into standard input (`-`)');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Up to three names closest to `wanted` (case-insensitive edit distance, or containing it). */
export function closestNames(wanted: string, names: readonly string[]): string[] {
  const w = wanted.toLowerCase();
  return names
    .map((name) => ({ name, score: name.toLowerCase().includes(w) ? 0 : distance(w, name.toLowerCase()) }))
    .filter((c) => c.score <= Math.max(3, Math.floor(w.length / 3)))
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map((c) => c.name);
}

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The values of a discriminator's tag that the members of its `oneOf` take (their `const` or `enum`), sorted. */
function tagValues(ajv: Ajv, error: ErrorObject): string[] {
  const tag = String(error.params.tag);
  const values = new Set<string>();
  const visit = (node: unknown, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 4) return;
    const schema = node as {
      $ref?: unknown;
      allOf?: unknown;
      properties?: Record<string, { const?: unknown; enum?: unknown }>;
    };
    if (typeof schema.$ref === 'string') visit(ajv.getSchema(schema.$ref)?.schema, depth + 1);
    const property = schema.properties?.[tag];
    if (typeof property?.const === 'string') values.add(property.const);
    if (Array.isArray(property?.enum)) for (const v of property.enum) if (typeof v === 'string') values.add(v);
    if (Array.isArray(schema.allOf)) for (const part of schema.allOf) visit(part, depth + 1);
  };
  const members = (error.parentSchema as { oneOf?: unknown[] } | undefined)?.oneOf ?? [];
  for (const member of members) visit(member, 0);
  return [...values].sort();
}
