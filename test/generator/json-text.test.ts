/** `casi validate`'s JSON reading: where a syntax error is (line:column, one line), the same verdict as JSON.parse. */
import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../generator/commands/json-text.js';

describe('parseJsonText', () => {
  it.each([
    ['{"code":', 1, 9, 'expected a value, found the end of the text'],
    ['{\r\n  "a": tru\r\n}', 2, 11, 'expected true, found "\\r"'],
    ['[1,]', 1, 4, 'expected a value, found "]"'],
    ['{"a":1,}', 1, 8, 'expected a property name in double quotes, found "}"'],
    ['{"a" 1}', 1, 6, 'expected \':\' after the property name, found "1"'],
    ['{"a":1}\n\n  xyz', 3, 3, 'unexpected "x" after the JSON value'],
    ['{"a":"x\ny"}', 1, 8, 'control character "\\n" in a string (escape it)'],
    ['["\\x"]', 1, 3, 'bad escape \\x in a string'],
    ['["\\u12"]', 1, 3, 'bad \\u escape (\\u and four hexadecimal digits)'],
    ['[1.]', 1, 4, 'expected a digit after the decimal point, found "]"'],
    ['[01]', 1, 3, "expected ',' or ']', found \"1\""],
    ["{'a': 1}", 1, 2, 'expected a property name in double quotes, found "\'"'],
    ['["open', 1, 2, 'unterminated string'],
    ['', 1, 1, 'expected a value, found the end of the text'],
  ])('%j: %i:%i %s', (text, line, column, message) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(parseJsonText(text)).toEqual({ ok: false, line, column, message });
  });

  it('parses what JSON.parse parses, after a leading byte order mark too', () => {
    const text = '{"a": [1, -2.5e+3, true, false, null, "\\u00e9\\n", {}], "b": {"c": []}}';
    expect(parseJsonText(text)).toEqual({ ok: true, value: JSON.parse(text) });
    expect(parseJsonText(`\uFEFF${text}`)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  it('finds the error in deeply nested text without overflowing the stack', () => {
    const deep = `${'['.repeat(200_000)}x`;
    expect(parseJsonText(deep)).toMatchObject({ ok: false, line: 1, column: 200_001 });
  });
});
