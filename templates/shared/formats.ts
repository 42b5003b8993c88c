/**
 * The string formats the validators check (JSON Schema `format`), imported by the precompiled validators.
 * `date-time` accepts exactly what ajv-formats' full mode accepts (RFC 3339 with real calendar dates and leap
 * seconds), without regular expressions or allocation; `uri` and `email` are ajv-formats' full-mode expressions.
 */

/** Days in each month of a common year (index 1 = January). */
const DAYS = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The decimal value of the ASCII digits `str[from..to)`, or -1 when one of them is not a digit (or is missing). */
function digits(str: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const d = str.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** Whether the character at `i` is ASCII digit. */
function isDigit(str: string, i: number): boolean {
  const c = str.charCodeAt(i);
  return c >= 48 && c <= 57;
}

const SPACE = /^\s$/;

/**
 * The common `date-time`: every field in range, a day of at most 31, a `T` or a space, no leap second. One
 * expression test is about twice as fast as reading each character with `charCodeAt`; anything else (a day from
 * 29 on, a leap second, another space) goes on to `checkDateTime`, which decides.
 */
const COMMON_DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])[Tt ](?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:[Zz]|[+-](?:[01]\d|2[0-3])(?::?[0-5]\d)?)$/;

/**
 * RFC 3339 `date-time` (section 5.6): `YYYY-MM-DD`, `T` (either case, or a space), `hh:mm:ss`, optional fraction,
 * and a zone `Z` or `±hh:mm` (the colon and the minutes may be left out). The date must exist (leap years
 * included); `ss` may be 60 only where the UTC time is 23:59.
 */
export function isDateTime(str: string): boolean {
  if (COMMON_DATE_TIME.test(str)) {
    // Days up to 28 exist in every month.
    const tens = str.charCodeAt(8);
    if (tens < 50 || (tens === 50 && str.charCodeAt(9) !== 57)) return true;
  }
  return checkDateTime(str);
}

/** `isDateTime` character by character, for every value. */
function checkDateTime(str: string): boolean {
  if (str.charCodeAt(4) !== 45 || str.charCodeAt(7) !== 45) return false;
  const year = digits(str, 0, 4);
  const month = digits(str, 5, 7);
  const day = digits(str, 8, 10);
  if (year < 0 || month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > (month === 2 && leap ? 29 : (DAYS[month] as number))) return false;
  const separator = str.charCodeAt(10);
  if (separator !== 84 && separator !== 116 && !SPACE.test(str.charAt(10))) return false;
  // hh:mm:ss
  if (str.charCodeAt(13) !== 58 || str.charCodeAt(16) !== 58) return false;
  const hour = digits(str, 11, 13);
  const minute = digits(str, 14, 16);
  const second = digits(str, 17, 19);
  if (hour < 0 || minute < 0 || second < 0) return false;
  let i = 19;
  if (str.charCodeAt(i) === 46) {
    if (!isDigit(str, ++i)) return false;
    while (isDigit(str, i)) i++;
  }
  // Z, or ±hh with optional [:]mm
  const zone = str.charCodeAt(i);
  let sign = 0;
  let zoneHour = 0;
  let zoneMinute = 0;
  if (zone === 90 || zone === 122) {
    i++;
  } else if (zone === 43 || zone === 45) {
    sign = zone === 45 ? -1 : 1;
    zoneHour = digits(str, i + 1, i + 3);
    if (zoneHour < 0) return false;
    i += 3;
    if (i < str.length) {
      if (str.charCodeAt(i) === 58) i++;
      zoneMinute = digits(str, i, i + 2);
      if (zoneMinute < 0) return false;
      i += 2;
    }
  } else {
    return false;
  }
  if (i !== str.length || zoneHour > 23 || zoneMinute > 59) return false;
  if (hour <= 23 && minute <= 59 && second <= 59) return true;
  // A leap second: 23:59:60 in UTC.
  const utcMinute = minute - zoneMinute * sign;
  const utcHour = hour - zoneHour * sign - (utcMinute < 0 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second <= 60;
}

/** A URI with a scheme (RFC 3986), as ajv-formats' full `uri`. */
const URI =
  /^(?:[a-z][a-z0-9+\-.]*:)(?:\/?\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\.[a-z0-9\-._~!$&'()*+,;=:]+)\]|(?:(?:25[0-5]|2[0-4]\d|[01]?\d\d?)\.){3}(?:25[0-5]|2[0-4]\d|[01]?\d\d?)|(?:[a-z0-9\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\d*)?(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\/(?:(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\/(?:[a-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\?(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$/i;

/** An absolute URI (RFC 3986): a scheme, then a hierarchical part; a bare fragment or name is refused. */
export function isUri(str: string): boolean {
  return (str.includes('/') || str.includes(':')) && URI.test(str);
}

const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/** An e-mail address: a dot-atom local part, `@`, and a domain name with at least one dot. */
export function isEmail(str: string): boolean {
  return EMAIL.test(str);
}

/**
 * The expression of a JSON Schema `pattern` (ECMA-262): with `flags` (ajv gives `u`) where it parses so, else
 * without `u`, as a lone `{` or an identity escape such as `\-` is valid ECMA-262 that the `u` flag refuses.
 */
export function patternRegExp(pattern: string, flags: string): RegExp {
  try {
    return new RegExp(pattern, flags);
  } catch (error) {
    if (!flags.includes('u')) throw error;
    return new RegExp(pattern, flags.replace('u', ''));
  }
}

/** Every format the validators know, by its JSON Schema name. */
export const formats: Readonly<Record<string, (str: string) => boolean>> = {
  'date-time': isDateTime,
  email: isEmail,
  uri: isUri,
};
