/** The string formats of the validators: `date-time` by hand, checked against ajv-formats' full mode. */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { formats, isDateTime, isEmail, isUri } from '../../templates/shared/formats.js';
import { random } from './random.js';

/** ajv-formats' full-mode check of `name` (what the validators used before these functions). */
function reference(name: 'date-time' | 'uri' | 'email'): (value: string) => boolean {
  const format = fullFormats[name] as RegExp | ((value: string) => boolean) | { validate: (value: string) => boolean };
  if (format instanceof RegExp) return (value) => format.test(value);
  return typeof format === 'function' ? format : format.validate;
}

describe('date-time', () => {
  it.each([
    '2025-07-02T14:00:05.000Z',
    '2025-07-02t14:00:05z',
    '2025-07-02T14:00:05+02:00',
    '2025-07-02T14:00:05.123456789-11:30',
    '2024-02-29T00:00:00Z',
    '2000-02-29T23:59:59Z',
    '1998-12-31T23:59:60Z',
    '1998-12-31T15:59:60-08:00',
    '0000-01-01T00:00:00Z',
  ])('accepts %s', (value) => {
    expect(isDateTime(value)).toBe(true);
  });

  it.each([
    '',
    'yesterday',
    '2025-07-02',
    '2025-07-02T14:00:05',
    '2024-02-30T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2025-04-31T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-00-01T00:00:00Z',
    '2025-07-00T00:00:00Z',
    '2025-07-02T24:00:00Z',
    '2025-07-02T14:60:00Z',
    '2025-07-02T14:00:60Z',
    '2025-07-02T14:00:05.Z',
    '2025-07-02T14:00:05+24:00',
    '2025-07-02T14:00:05+02:60',
    '2025-07-02T14:00:05+02:',
    '2025-07-02T14:00:05Z ',
    '2025-07-02TT14:00:05Z',
    '25-07-02T14:00:05Z',
    '2025-7-02T14:00:05Z',
    '２０２５-07-02T14:00:05Z',
  ])('refuses %j', (value) => {
    expect(isDateTime(value)).toBe(false);
  });

  it('agrees with ajv-formats on spec-like and mutated values', () => {
    const expected = reference('date-time');
    const next = random(7);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    /** Two digits from 00 to `max`, now and then anything up to 99. */
    const two = (max: number) => String(Math.floor(next() * (next() < 0.1 ? 100 : max + 1))).padStart(2, '0');
    const alphabet = '0123456789-:.+TtZz \t\u00a0x';
    let accepted = 0;
    for (let i = 0; i < 50_000; i++) {
      const date = `${pick(['2024', '2023', '1900', '2000', '0000', '9999'])}-${two(13)}-${two(32)}`;
      const time = `${two(24)}:${two(60)}:${two(61)}${pick(['', '.5', '.123456', '.'])}`;
      const zone = pick([
        'Z',
        'z',
        '',
        `+${two(24)}:${two(60)}`,
        `-${two(24)}${two(60)}`,
        `+${two(24)}`,
        '+01:',
        `-${two(24)}:${two(60)}x`,
      ]);
      let value = `${date}${pick(['T', 't', ' ', '\u2003', '_', 'TT'])}${time}${zone}`;
      // Now and then one character replaced, dropped or added anywhere.
      if (next() < 0.3) {
        const at = Math.floor(next() * (value.length + 1));
        const edit = pick(['replace', 'drop', 'add']);
        const c = pick([...alphabet]);
        value = value.slice(0, at) + (edit === 'drop' ? '' : c) + value.slice(edit === 'add' ? at : at + 1);
      }
      const want = expected(value);
      if (isDateTime(value) !== want) expect.fail(`${JSON.stringify(value)}: ajv-formats says ${want}`);
      if (want) accepted++;
    }
    // Leap seconds: 60 is allowed only where the UTC time is 23:59, whatever the offset.
    for (const hour of ['00', '01', '22', '23', '24', '25'])
      for (const minute of ['00', '01', '29', '30', '58', '59'])
        for (const second of ['59', '60', '60.9', '61'])
          for (const zone of [
            'Z',
            '+00:00',
            '+01:00',
            '-01:00',
            '+00:30',
            '-00:30',
            '+00:01',
            '-00:01',
            '+0100',
            '-01',
          ])
            for (const day of ['2016-12-31', '2017-01-01']) {
              const value = `${day}T${hour}:${minute}:${second}${zone}`;
              const want = expected(value);
              if (isDateTime(value) !== want) expect.fail(`${JSON.stringify(value)}: ajv-formats says ${want}`);
              if (want) accepted++;
            }
    // Both verdicts are well represented.
    expect(accepted).toBeGreaterThan(2_000);
    expect(accepted).toBeLessThan(48_000);
  });
});

describe('uri and email', () => {
  const values = [
    'https://example.com/hooks/conversation?x=1#top',
    'urn:casi:schema:Conversation',
    'mailto:ops@example.com',
    'http://[::1]:8080/',
    'example.com',
    '/relative/path',
    'https://exa mple.com',
    'ops@example.com',
    'ops@localhost',
    'o..ps@example.com',
    '',
  ];

  it.each(values)('judge %j as ajv-formats does', (value) => {
    expect(isUri(value)).toBe(reference('uri')(value));
    expect(isEmail(value)).toBe(reference('email')(value));
  });

  it('are the formats the validators know, by name', () => {
    expect(Object.keys(formats).sort()).toEqual(['date-time', 'email', 'uri']);
    expect(formats['date-time']).toBe(isDateTime);
  });
});

describe('date-time, fast path', () => {
  it('agrees with ajv-formats on values built from edge fields (days 28 to 32, leap years, zones, separators)', () => {
    const expected = reference('date-time');
    const next = random(11);
    const pick = (options: readonly string[]): string => options[Math.floor(next() * options.length)] as string;
    for (let i = 0; i < 20_000; i++) {
      const value = [
        pick(['2024', '2023', '1900', '2000', '0000']),
        `-${pick(['01', '02', '04', '12', '13', '00'])}`,
        `-${pick(['01', '19', '28', '29', '30', '31', '32', '00', '20', '2'])}`,
        pick(['T', 't', ' ', '\u00a0', 'X']),
        `${pick(['00', '23', '24', '15'])}:${pick(['00', '59', '60'])}:${pick(['00', '59', '60', '61'])}`,
        pick(['', '.5', '.']),
        pick(['Z', 'z', '+01:00', '-08:00', '+0100', '+01', '+24:00', '+01:60', '', '-00:01']),
      ].join('');
      expect(isDateTime(value), value).toBe(expected(value));
    }
  });
});
