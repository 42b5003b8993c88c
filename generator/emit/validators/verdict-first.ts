/**
 * A pass over the bundled ajv code: the `allErrors` function of a schema that also has a check (compiled to stop
 * at its first problem) runs that check first, and returns at once when it passes. A value the check accepts has
 * no issue to list; only a refused one needs the `allErrors` pass. This matters inside a refused value: the parts
 * of it that are valid (its other tools, say) no longer build and drop the errors of every `anyOf` alternative
 * that does not match them. The check exists for the schemas that try alternatives (`triesAlternatives`), and
 * for the schemas that contain one, so every level above such an alternative gets the shortcut.
 */

/** `var validateName = validateN;` / `var checkName = validateM;`: the exported functions, by schema name. */
const EXPORTED = /^var (validate|check)([A-Za-z0-9_]+) = (validate\d+);$/gm;

/**
 * `esm` with `if (<check>(data)) { <full>.errors = null; return true; }` at the start of every `allErrors`
 * function whose schema has a check. Fails when such a function is not declared in the form ajv writes.
 */
export function withVerdictFirst(esm: string): string {
  const full = new Map<string, string>();
  const check = new Map<string, string>();
  for (const [, kind, name = '', fn = ''] of esm.matchAll(EXPORTED)) (kind === 'check' ? check : full).set(name, fn);
  /** The check each `allErrors` function runs first, and its schema's name, by function. */
  const first = new Map<string, { checkFunction: string; name: string }>();
  for (const [name, checkFunction] of check) {
    const fullFunction = full.get(name);
    if (fullFunction === undefined) throw new Error(`the check of ${name} has no allErrors function`);
    if (fullFunction === checkFunction) throw new Error(`the check of ${name} is its allErrors function`);
    first.set(fullFunction, { checkFunction, name });
  }
  // One pass over the code: every declaration of such a function gets the shortcut at the start of its body.
  const declared = new Map<string, number>();
  let code = '';
  let copied = 0;
  for (const match of esm.matchAll(DECLARATION)) {
    const fullFunction = match[1] ?? '';
    const checkFunction = first.get(fullFunction)?.checkFunction;
    if (checkFunction === undefined) continue;
    declared.set(fullFunction, (declared.get(fullFunction) ?? 0) + 1);
    const body = match.index + match[0].length;
    code += `${esm.slice(copied, body)}  if (${checkFunction}(data)) {\n    ${fullFunction}.errors = null;\n    return true;\n  }\n`;
    copied = body;
  }
  for (const [fullFunction, { name }] of first) {
    if (declared.get(fullFunction) !== 1)
      throw new Error(`the allErrors function of ${name} (${fullFunction}) is not declared once as expected`);
  }
  return code + esm.slice(copied);
}

/** The start of a validate function's declaration, as ajv writes it. */
const DECLARATION = /function (\w+)\(data, instancePath = ""\) \{\n/g;
