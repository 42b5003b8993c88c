/**
 * The path rules generation needs, as Redocly named them: every `{name}` of a path template is a path parameter of
 * each of its operations and every path parameter is in the template (`path-parameters-defined`), no empty `{}`
 * (`path-declaration-must-exist`), no two paths that differ only in their parameters' names with a method in common
 * (`no-identical-paths`; without one, a warning), and no parameter twice in one list (`operation-parameters-unique`).
 * Local references are followed; others are left to the loader.
 */
import type { Diagnostic } from '../diagnostics.js';
import { valueAt } from '../load/refs.js';
import { type SourceDocument, toPointer } from '../load/source-map.js';
import { structureError } from './schema-findings.js';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'];

type Obj = Record<string, unknown>;

/** A parameter as listed: its name and place, and the pointer of the list entry. */
interface Listed {
  readonly name: string;
  readonly in: string;
  readonly pointer: string;
}

/** The path rules' findings in `doc`. */
export function checkPaths(doc: SourceDocument): Diagnostic[] {
  const paths = doc.value.paths;
  if (!isObject(paths)) return [];
  const found: Diagnostic[] = [];
  const report = (pointer: string, message: string, rule: string) =>
    found.push(structureError(doc, pointer, message, `openapi/${rule}`));
  const shapes = new Map<string, { template: string; methods: string[] }>();
  for (const [template, written] of Object.entries(paths)) {
    const at = toPointer(['paths', template]);
    if (template.includes('{}'))
      report(at, `the path ${template} has an empty parameter \`{}\``, 'path-declaration-must-exist');
    const item = resolved(doc.value, written);
    const shape = template.replace(/\{[^}]*\}/g, '{}');
    const same = shapes.get(shape);
    const methods = isObject(item) ? METHODS.filter((m) => isObject(item[m])) : [];
    if (same === undefined) shapes.set(shape, { template, methods });
    else found.push(identicalPaths(doc, at, template, same, methods));
    if (!isObject(item)) continue;
    const templated = [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
    const shared = listed(doc.value, item.parameters, `${at}/parameters`, report);
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const own = listed(doc.value, operation.parameters, `${at}/${method}/parameters`, report);
      const declared = [...own, ...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in))];
      for (const name of templated)
        if (!declared.some((p) => p.in === 'path' && p.name === name))
          report(
            `${at}/${method}`,
            `the ${method.toUpperCase()} operation of ${template} does not define its path parameter \`${name}\``,
            'path-parameters-defined',
          );
      for (const p of own) if (p.in === 'path' && !templated.includes(p.name)) unused(p, template, report);
    }
    for (const p of shared) if (p.in === 'path' && !templated.includes(p.name)) unused(p, template, report);
  }
  return found;
}

type Report = (pointer: string, message: string, rule: string) => void;

/**
 * Two paths that differ only in their parameters' names, which the specification forbids: an error when they share
 * a method (no server can tell the two operations apart), else a warning, since each route can be served (GitHub's
 * description has such pairs).
 */
function identicalPaths(
  doc: SourceDocument,
  pointer: string,
  template: string,
  same: { template: string; methods: string[] },
  methods: readonly string[],
): Diagnostic {
  const shared = methods.filter((m) => same.methods.includes(m)).map((m) => m.toUpperCase());
  const message = `the path ${template} is the path ${same.template} with other parameter names`;
  const finding = structureError(doc, pointer, message, 'openapi/no-identical-paths');
  if (shared.length > 0) return { ...finding, message: `${message}, and both have ${shared.join(', ')}` };
  return { ...finding, severity: 'warning', message: `${message}; their methods differ, so both are generated` };
}

/** A path parameter that is not in its path. */
function unused(p: Listed, template: string, report: Report): void {
  report(p.pointer, `the path parameter \`${p.name}\` is not in the path ${template}`, 'path-parameters-defined');
}

/** The parameters of a list (references followed), each reported when it repeats an earlier one. */
function listed(root: Obj, list: unknown, at: string, report: Report): Listed[] {
  if (!Array.isArray(list)) return [];
  const result: Listed[] = [];
  list.forEach((entry, i) => {
    const parameter = resolved(root, entry);
    if (!isObject(parameter) || typeof parameter.name !== 'string' || typeof parameter.in !== 'string') return;
    const p = { name: parameter.name, in: parameter.in, pointer: `${at}/${i}` };
    if (result.some((q) => q.name === p.name && q.in === p.in))
      report(p.pointer, `the ${p.in} parameter \`${p.name}\` is listed twice`, 'operation-parameters-unique');
    else result.push(p);
  });
  return result;
}

/** `value`, or what its local `$ref` names, followed to the end. */
function resolved(root: Obj, value: unknown): unknown {
  let node = value;
  for (let hops = 0; hops < 32; hops++) {
    const ref = isObject(node) ? node.$ref : undefined;
    if (typeof ref !== 'string' || !ref.startsWith('#')) return node;
    node = valueAt(root, ref.slice(1));
  }
  return node;
}

function isObject(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
