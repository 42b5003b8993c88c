/**
 * Parses the JSON text `casi validate` reads, and says where it is not JSON: `line:column: message`, on one line,
 * whatever the Node version's own `JSON.parse` messages look like (they vary, some quote the text, newlines included,
 * and some give no position). A leading UTF-8 byte order mark is skipped, as editors write one.
 */

/** The parsed value, or the first syntax error: 1-based line and column, and a message of one line. */
export type ParsedJson =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly line: number; readonly column: number; readonly message: string };

/** Parses `text` (a leading BOM skipped) with `JSON.parse`; on a syntax error, finds where it is. */
export function parseJsonText(text: string): ParsedJson {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    const found = findSyntaxError(body) ?? { offset: 0, message: String((error as Error).message) };
    return { ok: false, ...lineAndColumn(body, found.offset), message: found.message.replace(/\s+/g, ' ') };
  }
}

/** The 1-based line and column (in UTF-16 code units) of `offset`; a CR LF pair ends one line. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, column: offset - start + 1 };
}

/**
 * The offset and description of the first place where `text` breaks the JSON grammar (RFC 8259), or undefined
 * when it is JSON. Iterative, so that deep nesting cannot overflow the stack.
 */
function findSyntaxError(text: string): { offset: number; message: string } | undefined {
  let i = 0;
  /** The closing brackets of the open arrays and objects, innermost last. */
  const open: ('}' | ']')[] = [];
  const skipSpace = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const found = () =>
    i >= text.length ? 'the end of the text' : JSON.stringify(String.fromCodePoint(text.codePointAt(i) ?? 0));
  const fail = (expected: string) => ({ offset: i, message: `expected ${expected}, found ${found()}` });
  const string = (): { offset: number; message: string } | undefined => {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) return { offset: start, message: 'unterminated string' };
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return undefined;
      }
      if (c < 0x20) return { offset: i, message: `control character ${found()} in a string (escape it)` };
      if (c === 0x5c) {
        const escaped = text[i + 1] ?? '';
        if (escaped === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)))
            return { offset: i, message: 'bad \\u escape (\\u and four hexadecimal digits)' };
          i += 6;
        } else if ('"\\/bfnrt'.includes(escaped) && escaped !== '') i += 2;
        else return { offset: i, message: `bad escape \\${escaped} in a string` };
      } else i++;
    }
  };
  const number = (): { offset: number; message: string } | undefined => {
    const digits = () => {
      const start = i;
      while (isDigit(text[i])) i++;
      return i > start;
    };
    if (text[i] === '-') i++;
    if (text[i] === '0') i++;
    else if (!digits()) return fail('a digit');
    if (text[i] === '.') {
      i++;
      if (!digits()) return fail('a digit after the decimal point');
    }
    if (text[i] === 'e' || text[i] === 'E') {
      i++;
      if (text[i] === '+' || text[i] === '-') i++;
      if (!digits()) return fail('a digit in the exponent');
    }
    return undefined;
  };
  const propertyName = () => {
    skipSpace();
    if (text[i] !== '"') return fail('a property name in double quotes');
    const error = string();
    if (error) return error;
    skipSpace();
    if (text[i] !== ':') return fail("':' after the property name");
    i++;
    return undefined;
  };

  let wantValue = true;
  for (;;) {
    skipSpace();
    if (wantValue) {
      const c = text[i];
      let error: { offset: number; message: string } | undefined;
      wantValue = false;
      if (c === '{' || c === '[') {
        i++;
        skipSpace();
        const close = c === '{' ? '}' : ']';
        if (text[i] === close) i++;
        else {
          open.push(close);
          wantValue = true;
          if (close === '}') error = propertyName();
        }
      } else if (c === '"') error = string();
      else if (c === '-' || isDigit(c)) error = number();
      else {
        const word = ['true', 'false', 'null'].find((w) => w[0] === c);
        if (word === undefined) return fail('a value');
        for (const letter of word) {
          if (text[i] !== letter) return fail(`${word}`);
          i++;
        }
      }
      if (error) return error;
      continue;
    }
    const close = open.at(-1);
    if (close === undefined)
      return i >= text.length ? undefined : { offset: i, message: `unexpected ${found()} after the JSON value` };
    if (text[i] === ',') {
      i++;
      wantValue = true;
      if (close === '}') {
        const error = propertyName();
        if (error) return error;
      }
    } else if (text[i] === close) {
      i++;
      open.pop();
    } else return fail(`',' or '${close}'`);
  }
}

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}
