/**
 * A corpus of hostile inputs for the fuzz tests (test/security/fuzz-*.test.ts): FTS5 syntax, SQL
 * fragments, prototype keys, control characters, RTL/emoji/combining text, path traversal, special
 * numbers (as numbers and as text), extreme timestamps, oversized strings and structures, and raw
 * JSON texts that JSON.stringify cannot produce (1e999, duplicate keys, 10,000-level nesting).
 *
 * Everything here is data: no test logic. Values that cannot survive JSON.stringify (NaN, Infinity,
 * -0, lone surrogates) also come as raw JSON text in RAW_JSON_VALUES so they reach the server as typed.
 */

/** FTS5 query syntax: operators, column filters, prefixes, NEAR groups, unbalanced quotes and parens. */
export const FTS5 = [
  '"a" OR b*',
  'NEAR(a b)',
  'NEAR(a b, 2)',
  'NEAR(',
  'a NEAR b',
  'col:x',
  'fact:Brian',
  'entity_name:Brian',
  'terms:tea',
  '{fact terms}: tea',
  '- fact: tea',
  '*',
  '**',
  'a*',
  '*a',
  '"a"*',
  '^',
  '^tea',
  'AND',
  'OR',
  'NOT',
  'AND OR NOT',
  'tea AND',
  'OR tea',
  'NOT NOT tea',
  'tea NOT',
  '"',
  '"""',
  '"unbalanced',
  'unbalanced"',
  'a"b"c',
  '(',
  ')',
  '((tea)',
  'tea))',
  '(tea OR) AND (',
  '{a b}: c',
  '+',
  'a + b',
  ':',
  'a:',
  ':a',
  '""',
  '" "',
  "'",
  'rank:1',
  'bm25(memories_fts)',
  'MATCH',
  'tea" OR "1"="1',
  '* OR *',
  'a'.repeat(50) + '*',
  Array.from({ length: 200 }, (_, i) => `w${i}`).join(' OR '),
  Array.from({ length: 64 }, () => '(').join('') + 'x',
] as const;

/** SQL injection fragments. */
export const SQL = [
  "'; DROP TABLE memories; --",
  '"; DROP TABLE readings; --',
  "Robert'); DROP TABLE entities;--",
  '1 OR 1=1',
  "' OR '1'='1",
  "' OR 1=1 --",
  "admin'--",
  '1; SELECT * FROM sqlite_master',
  "' UNION SELECT sql, name, type FROM sqlite_master --",
  "x' AND 1=(SELECT COUNT(*) FROM memories) --",
  "'; ATTACH DATABASE '/tmp/pwn.db' AS pwn; --",
  "'; PRAGMA writable_schema=1; --",
  "'; VACUUM INTO '/tmp/hearth-copy.db'; --",
  "load_extension('/tmp/evil.so')",
  '%',
  '_',
  '%_%',
  '\\',
  '\\%',
  '/*',
  '*/',
  '-- ',
  '? ?1 :a @a $a',
  "''",
  'char(0x41)',
  'NULL',
  'null',
  'undefined',
  'true',
] as const;

/** Keys and values that pollute prototypes when code assigns by key. */
export const PROTO = [
  '__proto__',
  'constructor',
  'prototype',
  'constructor.prototype',
  '__proto__.polluted',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  '__lookupSetter__',
  'isPrototypeOf',
  'then',
] as const;

/** Control characters, NUL, line/paragraph separators, BOM, lone surrogates. */
export const CONTROL = [
  '\u0000',
  'a\u0000b',
  '\u0000Brian',
  'Brian\u0000',
  '\u0001\u0002\u0003',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r\n',
  'line1\nline2',
  '\u000b\u000c',
  '\u001b[31mred\u001b[0m',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ufeffBrian',
  '\ufffe',
  '\uffff',
  '\ud800',
  'a\udc00b',
  '\udbff\udfff',
] as const;

/** RTL overrides, emoji sequences, combining marks, homoglyphs, zero-width and odd whitespace. */
export const UNICODE = [
  '\u202eBrian',
  '\u202enairB\u202c',
  '\u200fBrian\u200e',
  '👩‍👩‍👧',
  '👩🏽‍💻',
  '🏳️‍🌈',
  '🇩🇪',
  '😀'.repeat(10),
  'B̸̢̛͎r̵̨̛i̷a̴n̶',
  'Zalgo: ' + 'a' + '\u0301\u0302\u0303\u0304\u0305\u0306\u0307\u0308'.repeat(8),
  '\u0301',
  'é',
  'e\u0301',
  'İstanbul',
  'straße',
  'ﬀ',
  'Ｂｒｉａｎ',
  '𝕭𝖗𝖎𝖆𝖓',
  'Вrian',
  '\u200b',
  'Brian\u200b',
  '\u200d',
  '\u00a0',
  '\u3000',
  '   ',
  ' Brian ',
  'مرحبا',
  'שלום',
  '你好世界',
  'こんにちは',
  '한국어',
  'ᚠᛇᚻ',
  '\u{10ffff}',
  '\u{e0041}',
] as const;

/** Path traversal and URL-encoding tricks, as they would appear in a path segment. */
export const PATH_SEGMENTS = [
  '../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '%2e%2e',
  '%252e%252e%252f',
  '..%5c..%5cwindows',
  '..\\..\\windows\\win.ini',
  '....//....//etc/passwd',
  '%c0%ae%c0%ae%2f',
  '%00',
  'a%00b',
  '%00..%2f',
  '.',
  '..',
  '%2e',
  '/etc/passwd',
  '%2Fetc%2Fpasswd',
  '%',
  '%zz',
  '%e2%80%ae',
  '%f0%9f%91%a9',
  '%ff%fe',
  '?x=1',
  '%3Fx%3D1',
  '%23frag',
  ';jsessionid=1',
  '%20',
  '+',
  '1e3',
  '0x10',
  '-1',
  '0',
  '1.5',
  'NaN',
  'Infinity',
  '9'.repeat(400),
  'x'.repeat(5000),
] as const;

/** Numbers that break naive arithmetic (NaN/±Infinity become null through JSON.stringify). */
export const NUMBERS: readonly number[] = [
  NaN,
  Infinity,
  -Infinity,
  -0,
  0,
  -1,
  0.5,
  -0.5,
  1e308,
  -1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  5e-324,
  Number.EPSILON,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  1e21,
  1.0000000000000002,
  // biome-ignore lint/correctness/noPrecisionLoss: more digits than a double holds, on purpose (a sensor sends them)
  123456789.123456789,
];

/** The same special numbers as text (query strings, templates and sensors send these). */
export const NUMERIC_STRINGS = [
  'NaN',
  'nan',
  'Infinity',
  '-Infinity',
  'inf',
  '-0',
  '0',
  '1e308',
  '1e309',
  '-1e309',
  '1e-400',
  '0x10',
  '0b101',
  '0o17',
  '1_000',
  ' 1 ',
  '1,5',
  '.5',
  '5.',
  '+1',
  '--1',
  '1e',
  '9007199254740993',
  '123456789012345678901234567890',
  '',
] as const;

/** Raw JSON literals that JSON.stringify never emits (sent as text with content-type application/json). */
export const RAW_JSON_VALUES = [
  '1e999',
  '-1e999',
  '1e-999',
  '-0',
  '-0.0',
  '0e0',
  '1E+2',
  '123456789012345678901234567890',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udc00\\ud800"',
  '"\\u202eBrian"',
  'NaN',
  'Infinity',
  'undefined',
  "'single'",
  '0x10',
  '.5',
  '01',
] as const;

/** Year 1 and year 9999 as epoch seconds and ISO text, just inside and just outside the bounds. */
export const TIMESTAMPS: readonly (number | string)[] = [
  -62135596800, // 0001-01-01T00:00:00Z
  -62135596801,
  253402300799, // 9999-12-31T23:59:59Z
  253402300800,
  253402300799999, // milliseconds by mistake
  0,
  -1,
  1796058600000, // ms for 2026-11-30
  1e308,
  -1e308,
  0.5,
  '0001-01-01T00:00:00Z',
  '0001-01-01T00:00:00+14:00', // year 0 in UTC: below the epoch bound after the offset
  '0001-01-01 00:00:00Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59-14:00', // year 10000 in UTC
  '9999-12-31T23:59:59.999999999Z',
  '10000-01-01T00:00:00Z',
  '+010000-01-01T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '2026-02-30T12:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-11-30T25:61:61Z',
  '2026-11-30T18:10:00+99:99',
  '2026-11-30T18:10:00', // no zone
  '2026-11-30',
  '1796058600',
  'now',
  'yesterday',
  '',
];

/** A string of exactly `n` UTF-16 units; `unit` may be multi-unit (emoji) — then the last unit is padded with 'x'. */
export function ofLength(n: number, unit = 'x'): string {
  if (n <= 0) return '';
  const s = unit.repeat(Math.ceil(n / unit.length));
  return s.length === n ? s : s.slice(0, n - 1) + 'x';
}

/**
 * Strings at and around a field's maximum length: max-1, max, max+1, in ASCII, in 2-unit emoji
 * (max counted in UTF-16 units by zod), with combining marks, and padded with spaces that `.trim()`
 * removes (so the trimmed value fits).
 */
export function aroundMax(max: number): string[] {
  return [
    ofLength(max - 1),
    ofLength(max),
    ofLength(max + 1),
    ofLength(max * 4),
    '😀'.repeat(Math.floor(max / 2)),
    '😀'.repeat(Math.floor(max / 2) + 1),
    'e\u0301'.repeat(Math.floor(max / 2)),
    'e\u0301'.repeat(Math.floor(max / 2) + 1),
    '  ' + ofLength(max) + '  ',
    ' '.repeat(max + 1),
  ];
}

/** Lengths far over every field limit (up to a bit under the default 1 MiB body limit). */
export const HUGE_STRINGS = [ofLength(65_536), ofLength(500_000, 'ab'), '😀'.repeat(200_000)] as const;

/** Every hostile string, for random picking. */
export const NASTY_STRINGS: readonly string[] = [
  ...FTS5,
  ...SQL,
  ...PROTO,
  ...CONTROL,
  ...UNICODE,
  ...PATH_SEGMENTS,
  ...NUMERIC_STRINGS,
  ...TIMESTAMPS.filter((t): t is string => typeof t === 'string'),
];

/** Non-string values of every JSON type (and a few shapes that trip naive code). */
export const NASTY_VALUES: readonly unknown[] = [
  null,
  true,
  false,
  ...NUMBERS,
  ...TIMESTAMPS.filter((t) => typeof t === 'number'),
  [],
  [null],
  [''],
  ['a', 'b'],
  [1, 2, 3],
  {},
  { value: 1 },
  { '': '' },
  { length: 1e9 },
  { toString: 'x', valueOf: 1 },
  { constructor: { prototype: { polluted: 'yes' } } },
  { prototype: { polluted: 'yes' } },
  Array.from({ length: 10_000 }, (_, i) => i),
  Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, i])),
];

/** `depth` levels of arrays: [[[...]]]. */
export const deepArray = (depth: number, leaf = '1'): string => '['.repeat(depth) + leaf + ']'.repeat(depth);

/** `depth` levels of objects: {"a":{"a":...}}. */
export const deepObject = (depth: number, key = 'a', leaf = '1'): string =>
  `{"${key}":`.repeat(depth) + leaf + '}'.repeat(depth);

/**
 * Raw JSON bodies for object-taking routes: deep nesting (10,000 levels), nesting inside a field,
 * duplicate keys, `__proto__`/`constructor` as own keys (JSON.stringify never writes `__proto__`),
 * huge arrays, and lexically broken JSON. `fields` are the route's top-level field names.
 */
export function rawJsonBodies(fields: readonly string[]): string[] {
  const f = fields[0] ?? 'x';
  const g = fields[1] ?? 'y';
  return [
    deepArray(10_000),
    deepObject(10_000),
    `{"${f}":${deepArray(10_000)}}`,
    `{"${f}":${deepObject(10_000)}}`,
    `{"${f}":${deepObject(2_000, '__proto__')}}`,
    deepArray(100_000, ''),
    '['.repeat(300_000),
    '{"a":'.repeat(50_000),
    `{"${f}":"first","${f}":"second"}`,
    `{"${f}":1,"${f}":"one","${f}":null}`,
    `{"__proto__":{"polluted":"yes"},"${f}":"x"}`,
    `{"constructor":{"prototype":{"polluted":"yes"}},"${f}":"x"}`,
    `{"${f}":{"__proto__":{"polluted":"yes"}}}`,
    `{"${f}":[${'1,'.repeat(200_000)}1]}`,
    `[${'{},'.repeat(100_000)}{}]`,
    `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
    ...RAW_JSON_VALUES.map((v) => `{"${f}":${v},"${g}":${v}}`),
    ...RAW_JSON_VALUES,
    '',
    ' ',
    '{',
    '}',
    '{"a":}',
    '{"a" 1}',
    '{a:1}',
    "{'a':1}",
    '{"a":1,}',
    '[1,]',
    '{"a":1}{"b":2}',
    '{"a":1} trailing',
    '\ufeff{}',
    '{"a":"\u0000"}',
    '{"a":"unterminated',
    '{"a":"\\x41"}',
    '{"a":"\\u12"}',
    'null',
    'true',
    '"string"',
    '42',
    '[]',
    '{}',
  ];
}

/** Content types a client might send with any body. */
export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/json;;;',
  'application/problem+json',
  'application/vnd.api+json',
  'text/plain',
  'text/plain; charset=utf-8',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/octet-stream',
  'application/javascript',
  'a/b/c',
  '*/*',
  ';',
  '',
] as const;
