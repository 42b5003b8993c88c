/** The `output` of a successful procedure: `{summary}`, or an object with the top-level properties of `output_schema`. */
import { isPlainObject } from './merge.js';

/**
 * Without a schema: `{summary}`. With one: each top-level property of `output_schema.properties`; `summary` (if
 * listed) gets the summary, the others a placeholder of their type (the first `enum` value, `''`, `0`, `false`,
 * `[]`, `{}` or `null`).
 */
export function procedureOutput(outputSchema: unknown, summary: string): Record<string, unknown> {
  const properties = isPlainObject(outputSchema) ? outputSchema.properties : undefined;
  if (!isPlainObject(properties)) return { summary };
  const output: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(properties)) {
    output[name] = name === 'summary' ? summary : placeholder(schema);
  }
  return output;
}

function placeholder(schema: unknown): unknown {
  if (!isPlainObject(schema)) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return null;
  }
}
