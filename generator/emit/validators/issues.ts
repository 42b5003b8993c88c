/**
 * A pass over the bundled ajv code: every error object ajv builds becomes the issue the validators report
 * (`{ pointer, message, keyword }`), so that no `schemaPath` or `params` is built and a refused value's errors need
 * no conversion. The issue is the one `issuesFromAjv` (templates/shared/validation.ts) makes from ajv's error: the
 * pointer names the member of `required`, `additionalProperties` and a discriminator's tag, a name known only at
 * run time (an unknown member's) escaped by a function the pass adds to the code.
 */

/** What the error objects of code that only gives a verdict become: one shared object, never read. */
const REFUSED = 'casiRefused';
const REFUSED_CONSTANT = `const ${REFUSED} = { pointer: "", message: "refused (this check lists no issues)", keyword: "check" };`;

/** The function that escapes a member name known only at run time as a pointer segment, in the bundled code. */
const SEGMENT = 'casiSegment';
const SEGMENT_FUNCTION = [
  `function ${SEGMENT}(name) {`,
  '  for (let i = 0; i < name.length; i++) {',
  '    const c = name.charCodeAt(i);',
  '    if (c === 126 || c === 47) return name.replace(/~/g, "~0").replace(/\\//g, "~1");',
  '  }',
  '  return name;',
  '}',
].join('\n');

/** The params member that names the member an error is about, by keyword (`memberOf` in the runtime). */
const MEMBER_PARAM: Readonly<Record<string, string>> = {
  required: 'missingProperty',
  dependentRequired: 'missingProperty',
  dependencies: 'missingProperty',
  additionalProperties: 'additionalProperty',
  discriminator: 'tag',
};

/** `name` as a JSON pointer segment (RFC 6901: `~` is `~0`, `/` is `~1`). */
function pointerSegment(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** A double-quoted string literal, as ajv writes them. */
const STRING = /^"(?:[^"\\]|\\.)*"$/;

/**
 * Reads a JavaScript expression of ajv's code from `start` up to the first `terminator` outside brackets and string
 * literals; returns the expression and the index of the terminator. Fails when there is none.
 */
function readUntil(code: string, start: number, terminator: string): { text: string; end: number } {
  let depth = 0;
  for (let i = start; i < code.length; i++) {
    const c = code[i];
    if (depth === 0 && code.startsWith(terminator, i)) return { text: code.slice(start, i), end: i };
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < code.length && code[i] !== c; i++) if (code[i] === '\\') i++;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) break;
      depth--;
    } else if (c === '\n') break;
  }
  throw new Error(
    `an ajv error object of unexpected form in the bundled validators: ${code.slice(start - 20, start + 200)}`,
  );
}

/** Expects `text` at `at` in `code`; returns the index after it. */
function expectAt(code: string, at: number, text: string): number {
  if (!code.startsWith(text, at))
    throw new Error(
      `an ajv error object of unexpected form in the bundled validators: ${code.slice(at - 80, at + 120)}`,
    );
  return at + text.length;
}

/** The members of an object literal `{ a: x, b: y }` of ajv's params, by name. */
function membersOf(params: string): Map<string, string> {
  const members = new Map<string, string>();
  const body = params.slice(1, -1).trim();
  let at = 0;
  while (at < body.length) {
    const name = /^([A-Za-z_$][\w$]*): /.exec(body.slice(at));
    if (!name?.[1]) throw new Error(`ajv params of unexpected form in the bundled validators: ${params}`);
    at += name[0].length;
    const { text, end } = readUntil(`${body},`, at, ',');
    members.set(name[1], text.trim());
    at = end + 1;
    while (body[at] === ' ') at++;
  }
  return members;
}

/**
 * The pointer member of the issue for an error at `path` about `member`: `path + "/" + member`, folded into one
 * literal where both are literals, the member escaped at run time where it may need it.
 */
function pointerTo(path: string, member: string, plain: ReadonlySet<string>): string {
  if (STRING.test(member)) {
    const segment = JSON.stringify(`/${pointerSegment(JSON.parse(member) as string)}`);
    const last = / \+ ("(?:[^"\\]|\\.)*")$/.exec(path);
    return last?.[1]
      ? `pointer: ${path.slice(0, last.index)} + ${JSON.stringify((JSON.parse(last[1]) as string) + JSON.parse(segment))}`
      : `pointer: ${path} + ${segment}`;
  }
  if (!/^[A-Za-z_$][\w$]*$/.test(member))
    throw new Error(`an ajv error names its member by an unexpected expression: ${member}`);
  return plain.has(member) ? `pointer: ${path} + "/" + ${member}` : `pointer: ${path} + "/" + ${SEGMENT}(${member})`;
}

/**
 * The `missingN` variables of ajv's `required` code whose every assignment is a member name that needs no escape
 * in a pointer (`missing0 = "type"`): their pointer is built at once.
 */
function plainMissingVariables(esm: string): Set<string> {
  const plain = new Set<string>();
  const escaped = new Set<string>();
  for (const [, name, value] of esm.matchAll(/\b(missing\d+) = ([^\s;)]+)/g)) {
    if (!name) continue;
    const literal = value !== undefined && STRING.test(value) ? (JSON.parse(value) as string) : undefined;
    if (literal === undefined || literal !== pointerSegment(literal)) escaped.add(name);
    else plain.add(name);
  }
  for (const name of escaped) plain.delete(name);
  return plain;
}

/** One error object of ajv's code, read from the `{` at `at`: its parts and the index after its closing `}`. */
function readErrorObject(
  esm: string,
  at: number,
): { path: string; keyword: string; params: string; message: string; end: number } {
  let i = at + '{ instancePath'.length;
  let path = 'instancePath';
  if (esm.startsWith(': ', i)) {
    const read = readUntil(esm, i + 2, ', schemaPath: ');
    if (!read.text.startsWith('instancePath')) throw new Error(`an instancePath of unexpected form: ${read.text}`);
    path = read.text;
    i = read.end;
  }
  i = expectAt(esm, i, ', schemaPath: ');
  i = readUntil(esm, i, ', keyword: ').end;
  i = expectAt(esm, i, ', keyword: ');
  const keyword = readUntil(esm, i, ', params: ');
  if (!STRING.test(keyword.text)) throw new Error(`an ajv error with a computed keyword: ${keyword.text}`);
  i = expectAt(esm, keyword.end, ', params: ');
  const params = readUntil(esm, i, ', message: ');
  if (!params.text.startsWith('{') || !params.text.endsWith('}'))
    throw new Error(`ajv params of unexpected form: ${params.text}`);
  i = expectAt(esm, params.end, ', message: ');
  const message = readUntil(esm, i, ' }');
  return {
    path,
    keyword: keyword.text,
    params: params.text,
    message: message.text,
    end: expectAt(esm, message.end, ' }'),
  };
}

/** The bundled code cut where each module's code opens (esbuild's `// <module>` comment). */
function modulesOf(esm: string): string[] {
  return esm.split(/^(?=\/\/ [\w:.-]+$)/m);
}

/**
 * `esm` with each ajv error object `{ instancePath, schemaPath, keyword, params, message }` replaced by the issue
 * `{ pointer, message, keyword }`. In the code of the bundled module `verdictOnly` (esbuild's `// <module>`
 * comment opens it), whose functions only give a verdict and whose errors nobody reads, each becomes one shared
 * object instead, so that an alternative that fails builds nothing. Fails on an error object of any other form,
 * and when an error is still read or built in another way afterwards.
 */
export function withIssueObjects(esm: string, verdictOnly?: string): string {
  for (const name of [REFUSED, SEGMENT])
    if (esm.includes(name)) throw new Error(`the bundled validators already name ${name}`);
  const plain = plainMissingVariables(esm);
  const sections = modulesOf(esm);
  const out: string[] = [];
  let refused = false;
  for (const section of sections) {
    const onlyVerdict = verdictOnly !== undefined && section.startsWith(`// ${verdictOnly}\n`);
    let from = 0;
    for (let at = section.indexOf('{ instancePath'); at !== -1; at = section.indexOf('{ instancePath', from)) {
      out.push(section.slice(from, at));
      const error = readErrorObject(section, at);
      from = error.end;
      if (onlyVerdict) {
        out.push(REFUSED);
        refused = true;
        continue;
      }
      const memberParam = MEMBER_PARAM[JSON.parse(error.keyword) as string];
      let where = `pointer: ${error.path}`;
      if (memberParam !== undefined) {
        const member = membersOf(error.params).get(memberParam);
        if (member === undefined)
          throw new Error(`an ajv ${error.keyword} error without ${memberParam}: ${error.params}`);
        where = pointerTo(error.path, member, plain);
      }
      out.push(`{ ${where}, message: ${error.message}, keyword: ${error.keyword} }`);
    }
    out.push(section.slice(from));
  }
  const code = out.join('');
  const left =
    /\bschemaPath\b|\binstancePath:|\bparams: \{|\berr\w*\.(?:instancePath|schemaPath|keyword|params|message)\b/.exec(
      code,
    );
  if (left)
    throw new Error(
      `ajv errors still read or built in the bundled validators (${left[0]}): ${code.slice(left.index - 80, left.index + 80)}`,
    );
  const helpers = [...(code.includes(`${SEGMENT}(`) ? [SEGMENT_FUNCTION] : []), ...(refused ? [REFUSED_CONSTANT] : [])];
  return [...helpers, code].join('\n');
}

/** How ajv drops the errors of the alternatives tried once one of them passes. */
const TRUNCATE = /\bvErrors\.length = (_errs\d+);/g;

/**
 * `esm` with each `vErrors.length = _errsN;` (an alternative passed: its siblings' errors are dropped) written as
 * pops. The list keeps the same first `_errsN` errors; setting an array's `length` is a call into V8's runtime
 * (50–100 ns), where `pop` is inlined. Fails when the code shortens an array in any other way.
 */
export function withErrorsDroppedByPop(esm: string): string {
  const code = esm.replace(TRUNCATE, (_, count: string) => `while (vErrors.length > ${count}) vErrors.pop();`);
  const left = /\.length = /.exec(code);
  if (left) throw new Error(`an array shortened in an unexpected way: ${code.slice(left.index - 80, left.index + 80)}`);
  return code;
}

/** A schema ajv's code keeps as a value, on one line: `var schema12 = { … };`. */
const SCHEMA_DECLARATION = /^var (schema\d+) = .*;\n/gm;

/**
 * `esm` without the schema values no code reads any more: ajv keeps a schema for the `params` of its errors
 * (`allowedValues: schema43.enum`), which issues do not have. Each is an object built when the module loads.
 */
export function withoutUnusedSchemas(esm: string): string {
  return esm.replace(SCHEMA_DECLARATION, (declaration: string, name: string) =>
    esm.split(new RegExp(`\\b${name}\\b`)).length === 2 ? '' : declaration,
  );
}

/**
 * `esm` where the functions of the bundled module `verdictOnly` (after `withIssueObjects`, their errors hold no
 * pointer) no longer pass `instancePath` to one another: building `instancePath + "/tools/" + i0` on each call
 * is work for a location nobody reads. Fails when `instancePath` is still used there in any other way.
 */
export function withoutPathsInVerdicts(esm: string, verdictOnly: string): string {
  return modulesOf(esm)
    .map((section) => {
      if (!section.startsWith(`// ${verdictOnly}\n`)) return section;
      const out: string[] = [];
      let from = 0;
      for (const call of section.matchAll(/\bvalidate\d+\(/g)) {
        const open = (call.index ?? 0) + call[0].length;
        if (open < from || /^function /.test(section.slice(Math.max(0, (call.index ?? 0) - 9), call.index))) continue;
        const data = readUntil(section, open, ', ');
        const path = readUntil(section, data.end + 2, ')');
        if (!path.text.startsWith('instancePath')) continue;
        out.push(section.slice(from, data.end));
        from = path.end;
      }
      out.push(section.slice(from));
      const code = out.join('');
      const left = /\binstancePath\b(?! = ""\) \{)/.exec(code);
      if (left)
        throw new Error(
          `instancePath still used by the verdict-only functions: ${code.slice(left.index - 80, left.index + 80)}`,
        );
      return code;
    })
    .join('');
}

/**
 * In verdict-only code: adding an error to the list (the shared `casiRefused`, or the empty object ajv makes for
 * the errors of an `if`, which it always drops), the list of a function called, dropping errors from it, the list
 * itself and the function's `errors`.
 */
const VERDICT_LIST_EDITS: readonly [RegExp, string][] = [
  [
    /^(\s*)const (err\d+) = (?:casiRefused|\{\});\n\1if \(vErrors === null\) \{\n\1 {2}vErrors = \[\2\];\n\1\} else \{\n\1 {2}vErrors\.push\(\2\);\n\1\}\n/gm,
    '',
  ],
  [
    /^(\s*)vErrors = vErrors === null \? (validate\d+)\.errors : vErrors\.concat\(\2\.errors\);\n\1errors = vErrors\.length;$/gm,
    '$1errors++;',
  ],
  [
    /^(\s*)if \(vErrors !== null\) \{\n\1 {2}if \((_errs\d+)\) \{\n\1 {4}vErrors\.length = \2;\n\1 {2}\} else \{\n\1 {4}vErrors = null;\n\1 {2}\}\n\1\}\n/gm,
    '',
  ],
  [/^\s*(?:let vErrors = null;|validate\d+\.errors = (?:vErrors|\[casiRefused\]);)\n/gm, ''],
];

/**
 * `esm` where the functions of the bundled module `verdictOnly` (after `withIssueObjects`) keep no errors: no list
 * (an alternative that fails allocated one) and no `errors` property, which nobody reads (the `allErrors` function
 * that runs a check reads its verdict; `withVerdictFirst`). `errors` still counts: each problem, and each function
 * called that refuses its value, adds one (it added the length of that function's list), which keeps every test
 * the code makes of it (`errors === 0`, `_errs3 === errors`) and every reset (`errors = _errs3`). The shared
 * `casiRefused` error goes when nothing refers to it any more. Fails when the list is still used in another way.
 */
export function withoutErrorListsInVerdicts(esm: string, verdictOnly: string): string {
  const code = modulesOf(esm)
    .map((section) => {
      if (!section.startsWith(`// ${verdictOnly}\n`)) return section;
      let code = section;
      for (const [pattern, replacement] of VERDICT_LIST_EDITS) code = code.replace(pattern, replacement);
      const left = /^.*(?:\bvErrors\b|\.errors\b).*$/m.exec(code);
      if (left) throw new Error(`the error list still used by the verdict-only functions: ${left[0]}`);
      return code;
    })
    .join('');
  return code.split(REFUSED).length === 2 ? code.replace(`${REFUSED_CONSTANT}\n`, '') : code;
}
