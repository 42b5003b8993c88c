/** Drops the state ajv's bundled code keeps for keywords the specs do not use. */

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
