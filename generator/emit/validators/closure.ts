/** Moves ajv's bundled code from module scope into a function. */

/**
 * The bundled module `esm` with its body moved into a function: its imports and one `export { … }` stay at the top
 * level, every other binding becomes a local of the function. The code is unchanged, but V8 runs it faster there:
 * ajv's functions refer to themselves (`validate20.errors = …`, `validate20.evaluated`) and to each other, and a
 * load of a module-scope binding costs more in optimized code than one of a function's (5–10 % of a validation).
 * Bundlers could not drop unused validators of the flat module either (its top level assigns properties).
 */
export function inClosure(esm: string): string {
  const imports: string[] = [];
  const exports: { local: string; name: string }[] = [];
  const body: string[] = [];
  const lines = esm.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^import\s/.test(line)) {
      if (!line.trimEnd().endsWith(';')) throw new Error(`a multi-line import in the bundled validators: ${line}`);
      imports.push(line);
    } else if (line === 'export {') {
      for (i++; lines[i] !== '};'; i++) {
        const spec = /^\s*([\w$]+)(?:\s+as\s+([\w$]+))?,?$/.exec(lines[i] ?? '');
        if (!spec?.[1]) throw new Error(`an unexpected export in the bundled validators: ${lines[i]}`);
        exports.push({ local: spec[1], name: spec[2] ?? spec[1] });
      }
    } else if (/^export\s/.test(line)) {
      throw new Error(`an unexpected export in the bundled validators: ${line}`);
    } else {
      body.push(line);
    }
  }
  const names = exports.map((e) => e.name).join(', ');
  const returned = exports.map((e) => (e.local === e.name ? e.name : `${e.name}: ${e.local}`)).join(', ');
  return [
    ...imports,
    `const { ${names} } = /* @__PURE__ */ (() => {`,
    ...body,
    `return { ${returned} };`,
    '})();',
    `export { ${names} };`,
    '',
  ].join('\n');
}
