/** Entry of the ajv side of the start-up benchmark: ajv set up from the IR as the generator does, compiled at run time. */
import type { Ir } from '../generator/ir/model.js';
import { createAjv, schemaId, validatableSchemas } from '../generator/schema/ajv.js';

/**
 * Builds ajv over every schema of `ir` and returns the `ServerEvent` validator; with `all`, first compiles every
 * component schema and message (what the generated module holds precompiled), otherwise only what it needs.
 */
export function compileServerEvent(ir: Ir, all: boolean): (data: unknown) => boolean {
  const ajv = createAjv(ir, { standalone: false });
  if (all) for (const { name } of validatableSchemas(ir)) ajv.getSchema(schemaId(name));
  const validate = ajv.getSchema(schemaId('ServerEvent'));
  if (!validate) throw new Error('ajv has no ServerEvent schema');
  return (data) => validate(data) === true;
}
