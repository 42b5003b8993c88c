/** The pipeline: load → check → ir → emit. Each stage is timed so the CLI can report progress. */

import { completeCheck, hasErrors, modelOf } from './check/index.js';
import { type Diagnostic, InputError } from './diagnostics.js';
import { emitChannels } from './emit/channels/index.js';
import { emitClient } from './emit/client/index.js';
import { emitPackage } from './emit/package/index.js';
import { emitRuntime } from './emit/runtime/index.js';
import { emitServer } from './emit/server/index.js';
import { type EmittedFile, sortFiles } from './emit/shared/files.js';
import type { TypeScriptFile } from './emit/shared/ts.js';
import { emitTypes } from './emit/types/index.js';
import { emitValidators } from './emit/validators/index.js';
import { buildIr } from './ir/build.js';
import type { Ir } from './ir/model.js';
import { bundleRead, type LoadedSpecs, loadSpecs, type ReadSpecs } from './load/index.js';
import { loadTemplates } from './load/templates.js';
import type { GenerateOptions } from './options.js';
import { type StageListener, timed } from './stages.js';
import { type Helper, type Printers, printersHere, startHelper, startLint } from './worker/start.js';

export type { StageListener } from './stages.js';

/**
 * Loads and checks both documents; returns the specs, their IR when they have one, and every diagnostic. `linting`
 * is the linters' run, when the caller has started it already (`casi check` adds the style rules); by default, the
 * rules generation needs. `read`: the documents, when the caller has read them already.
 */
export async function loadAndCheck(
  options: GenerateOptions,
  onStage?: StageListener,
  linting = startLint(options, 'structure', onStage),
  read?: ReadSpecs,
): Promise<{ specs: LoadedSpecs; ir: Ir | undefined; diagnostics: Diagnostic[] }> {
  const specs = await timed('load', onStage, () =>
    read === undefined ? loadSpecs(options.openapi, options.asyncapi) : bundleRead(read),
  );
  const model = await timed('ir', onStage, () => modelOf(specs));
  const lints = await linting;
  const diagnostics = await timed('check', onStage, () => completeCheck(specs, lints, model));
  return { specs, ir: model.ir, diagnostics };
}

/** Loads, checks and builds the IR; throws InputError with the diagnostics when a document has errors. */
export async function buildModel(
  options: GenerateOptions,
  onStage?: StageListener,
): Promise<{ ir: Ir; diagnostics: Diagnostic[] }> {
  const { specs, ir, diagnostics } = await loadAndCheck(options, onStage);
  if (hasErrors(diagnostics)) throw new InputError('the specs have errors; nothing was generated', diagnostics);
  // Without an IR but without errors either, building it again throws the reason.
  return { ir: ir ?? buildIr(specs), diagnostics };
}

/**
 * The whole pipeline: the linters run in a worker thread (`helper`, when the caller has started it already), with
 * the rules generation needs and not the style rules that `casi check` adds, and then print the REST types, while the
 * IR is built and emitted here; nothing is returned (so nothing is written) unless the check passes. `sources` are
 * the files the specs were read from.
 */
export async function generate(
  options: GenerateOptions,
  onStage?: StageListener,
  helper = startHelper(options, 'structure', onStage, true),
): Promise<{ files: EmittedFile[]; diagnostics: Diagnostic[]; sources: readonly string[] }> {
  try {
    return await generateWith(options, helper, onStage);
  } finally {
    helper.close();
  }
}

async function generateWith(
  options: GenerateOptions,
  helper: Helper,
  onStage?: StageListener,
): Promise<{ files: EmittedFile[]; diagnostics: Diagnostic[]; sources: readonly string[] }> {
  const specs = await timed('load', onStage, () => loadSpecs(options.openapi, options.asyncapi));
  const model = await timed('ir', onStage, () => modelOf(specs));
  let files: EmittedFile[] | undefined;
  let emitError: unknown;
  try {
    if (model.ir) files = await emitAll(model.ir, options, onStage, helper.printers);
  } catch (error) {
    emitError = error;
  }
  const lints = await helper.linting;
  const diagnostics = await timed('check', onStage, () => completeCheck(specs, lints, model));
  if (hasErrors(diagnostics)) throw new InputError('the specs have errors; nothing was generated', diagnostics);
  if (!files) throw emitError;
  return { files, diagnostics, sources: specs.files };
}

/**
 * Runs every emitter on the IR; the result is sorted by path. `printers` print the REST types and the TypeScript
 * files (in the worker, when the command has one): each file is sent as soon as its emitter returns it, and the REST
 * types are asked for first. The validators compile here, while the worker prints the REST types.
 */
export async function emitAll(
  ir: Ir,
  options: GenerateOptions,
  onStage?: StageListener,
  printers: Printers = printersHere,
): Promise<EmittedFile[]> {
  const rest = printers.restTypes(ir.openapi);
  rest.catch(() => undefined);
  const printed = (files: readonly (EmittedFile | TypeScriptFile)[]) =>
    Promise.all(files.map((file) => ('statements' in file ? printers.print(file) : file)));
  const validators = timed('emit validators', onStage, () => printed(emitValidators(ir)));
  validators.catch(() => undefined);
  const templates = await loadTemplates(options.templates);
  const others = [
    timed('emit client', onStage, () => emitClient(ir)),
    timed('emit server', onStage, () => emitServer(ir)),
    timed('emit channels', onStage, () => emitChannels(ir)),
  ].map(async (files) => printed(await files));
  const runtime = await timed('emit runtime', onStage, () => emitRuntime(templates));
  const types = timed('emit types', onStage, async () => printed(emitTypes(ir, await rest)));
  const sources = [...(await types), ...(await validators), ...(await Promise.all(others)).flat(), ...runtime];
  const named = options.name === undefined ? ir : { ...ir, packageName: options.name };
  return sortFiles([...sources, ...emitPackage(named, sources)]);
}
