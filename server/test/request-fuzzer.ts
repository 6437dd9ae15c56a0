import fc from 'fast-check';
import { MAX_INT32 } from '../../common/validation.ts';

/**
 * Requests generated from a route's OpenAPI description (the zod schemas, as `app.swagger()`
 * renders them): valid-looking values, boundary values, wrong types, prototype keys, impossible
 * dates, NUL and non-ASCII text, missing and extra fields, malformed JSON and multipart bodies.
 * Used by route-fuzz.test.ts; nothing here knows a particular route.
 */

export type JsonSchema = {
  type?: string;
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  nullable?: boolean;
  anyOf?: JsonSchema[];
};

export type RouteSpec = {
  method: string;
  url: string;
  access: string;
  params: Record<string, JsonSchema>;
  query: Record<string, JsonSchema>;
  body: JsonSchema | null;
  /** Statuses the route declares (its response schemas): a declared 503 (readiness) is an answer, not a crash. */
  declaredStatuses: number[];
};

export const IDENTITIES = ['anonymous', 'super_admin', 'it_admin', 'instructor', 'support_staff'] as const;
export type Identity = (typeof IDENTITIES)[number];

export type FuzzBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string | null; payload: string }
  | { kind: 'multipart'; parts: MultipartPart[]; boundary: string; breakage: MultipartBreakage };

type MultipartPart = { name: string; fileName?: string; content: string | Huge };
type MultipartBreakage = 'none' | 'truncated' | 'no-boundary' | 'wrong-boundary' | 'no-final-boundary' | 'bad-part-header' | 'empty';

export type FuzzRequest = {
  identity: Identity;
  method: string;
  path: string;
  query: string;
  body: FuzzBody;
  remoteAddress: string;
  headers: Record<string, string>;
};

/** A long string made only when the request is sent, so ten thousand samples stay small. */
class Huge {
  constructor(readonly length: number) {}
  toJSON(): string {
    return 'x'.repeat(this.length);
  }
  toString(): string {
    return this.toJSON();
  }
}

/**
 * Stand-ins for values that change while the run goes on (the open QR session, its token rotating
 * every 15 s): the test replaces them in the URL and body just before sending.
 */
export const LIVE = { sessionUuid: 'LIVE_SESSION_UUID', sessionNumber: 'LIVE_SESSION_NUMBER', qrToken: 'LIVE_QR_TOKEN', qrCode: 'LIVE_QR_CODE' } as const;

/** What the seeded school offers as valid-looking values: existing ids, session refs, tokens… */
export type Pools = {
  ids: number[];
  sessionRefs: string[];
  tokens: string[];
  sisIds: string[];
  emails: string[];
  names: string[];
  passwords: string[];
  /** Days the seeded class meets, so date fields sometimes name a real meeting. */
  dates: string[];
  csvFiles: { name: string; content: string }[];
};

// ---- Hostile values ----

const PROTOTYPE_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', 'isPrototypeOf'];
const IMPOSSIBLE_DATES = [
  '2026-02-30',
  '2025-02-29',
  '2026-04-31',
  '2026-13-01',
  '2026-00-10',
  '2026-01-00',
  '0000-01-01',
  '9999-12-31',
  '1899-12-31',
  '+275760-09-13',
  '2026-2-3',
  '20260302',
];
const BOUNDARY_NUMBERS = [
  0,
  -1,
  1,
  2 ** 31 - 1,
  2 ** 31,
  -(2 ** 31),
  -(2 ** 31) - 1,
  2 ** 32,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  1e308,
  -1e308,
  0.5,
  -0.5,
  1e-7,
  123.456,
];
const BOUNDARY_NUMERIC_STRINGS = [
  '0',
  '-1',
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740993',
  '1e3',
  '1e309',
  '0x10',
  '0b1',
  '0o7',
  ' 1 ',
  '1 ',
  '01',
  '+1',
  '1.0',
  '1.5',
  '-0',
  'NaN',
  'Infinity',
  '-Infinity',
  '١٢',
  '１２',
];
/** Letters and digits that do not compress, the same every run. */
function incompressible(length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let x = 2_463_534_242;
  let out = '';
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out += alphabet[(x >>> 0) % alphabet.length];
  }
  return out;
}

const NASTY_STRINGS = [
  '',
  ' ',
  'null',
  'undefined',
  'true',
  'a\u0000b',
  '\u0000',
  '\ud800',
  'x\udfffy',
  'é',
  'İstanbul',
  '١٢٣٤٥٦',
  '１２３ ４５６',
  '😀',
  '\u202eevil',
  '\ufeffbom',
  '\u00a0',
  "' or 1=1 --",
  '"; drop table students; --',
  '%',
  '%00',
  '_',
  '\\',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  '=HYPERLINK("http://x")',
  '${jndi:ldap://x}',
  '\r\n\r\nX-Injected: 1',
  '2026-03-02T25:61:00Z',
  '-271821-04-20T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '24:00',
  '99:99',
  '23:59:60',
  // Valid-looking but longer than an index entry can hold (PostgreSQL btree rows are at most ~2.7 kB
  // after compression, so the text must not compress).
  incompressible(3_000) + '@example.edu',
  incompressible(3_000),
];

/** Any UTF-16 code unit: NUL, control characters, lone surrogates, astral halves. */
const rawUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 12 });

const hostileString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS, ...PROTOTYPE_KEYS, ...IMPOSSIBLE_DATES, ...BOUNDARY_NUMERIC_STRINGS) },
  { weight: 2, arbitrary: rawUnits },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 16 }) },
  { weight: 1, arbitrary: fc.constantFrom(300, 2_000, 70_000).map((n) => 'é'.repeat(n)) },
);

/** A value of the wrong shape or at a boundary, whatever the schema says. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 3, arbitrary: fc.constantFrom(...BOUNDARY_NUMBERS) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      null,
      true,
      false,
      [],
      {},
      [null],
      [[[[]]]],
      { a: { b: { c: {} } } },
      ['1', 2],
      { toString: 'x' },
      { constructor: { prototype: {} } },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(new Huge(100_000), new Huge(1_100_000)) },
);

// ---- Valid-looking values ----

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split('');
const isoDay = fc.integer({ min: Date.UTC(2019, 0, 1), max: Date.UTC(2031, 0, 1) }).map((ms) => new Date(ms).toISOString().slice(0, 10));

function validString(name: string, s: JsonSchema, pools: Pools): fc.Arbitrary<string> {
  const max = Math.min(s.maxLength ?? 40, 40);
  const min = Math.min(s.minLength ?? 0, max);
  if (/date$|^from$|^to$/i.test(name)) return fc.oneof(fc.constantFrom(...pools.dates), isoDay);
  if (/time$/i.test(name) && !s.pattern) return fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2028, 0, 1) }).map((ms) => new Date(ms).toISOString());
  if (/email/i.test(name)) return fc.oneof(fc.constantFrom(...pools.emails), fc.emailAddress());
  if (/^(id|sessionId)$/.test(name)) return fc.oneof(fc.constantFrom(...pools.sessionRefs), fc.uuid(), fc.nat({ max: 50 }).map(String));
  if (/^(t|token|code)$/.test(name))
    return fc.oneof(
      fc.constantFrom(...pools.tokens),
      fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: Math.max(min, 1), maxLength: Math.max(max, 12) }),
    );
  if (name === 'pass')
    return fc
      .tuple(fc.integer({ min: 0, max: 2 ** 42 }), fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 22, maxLength: 22 }))
      .map(([e, sig]) => `${e.toString(36)}.${sig}`);
  if (name === 'studentId') return fc.constantFrom(...pools.sisIds);
  if (/password/i.test(name)) return fc.oneof(fc.constantFrom(...pools.passwords), fc.string({ minLength: min, maxLength: Math.max(max, min) }));
  if (/name$/i.test(name)) return fc.oneof(fc.constantFrom(...pools.names), fc.string({ minLength: Math.max(min, 1), maxLength: max }));
  if (name === 'search') return fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...pools.names, '42', '99999999999', 'NUR'));
  if (name === 'timeZone') return fc.constantFrom('UTC', 'America/Chicago', 'Europe/Paris', 'Not/AZone', '');
  if (s.pattern) {
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length <= (s.maxLength ?? 200) && v.length >= (s.minLength ?? 0));
    } catch {
      // a pattern fast-check cannot read: plain text below
    }
  }
  return fc.string({ minLength: min, maxLength: Math.max(max, min) });
}

function validInteger(s: JsonSchema, pools: Pools): fc.Arbitrary<number> {
  const min = s.minimum ?? -1000;
  const max = s.maximum ?? 1000;
  if (max === MAX_INT32 && min === 1)
    return fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...pools.ids) },
      { weight: 2, arbitrary: fc.integer({ min: 1, max: 60 }) },
      { weight: 1, arbitrary: fc.constantFrom(MAX_INT32, 999_999) },
    );
  if (max - min > 100_000) return fc.oneof(fc.integer({ min, max: Math.min(max, min + 1000) }), fc.constantFrom(min, max));
  return fc.integer({ min, max });
}

/** A valid-looking value for a schema, or now and then a hostile one in its place. */
function valueArb(s: JsonSchema, name: string, pools: Pools, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 7, arbitrary: validValue(s, name, pools, depth) }, { weight: 2, arbitrary: hostileValue });
}

function validValue(s: JsonSchema, name: string, pools: Pools, depth: number): fc.Arbitrary<unknown> {
  let arb: fc.Arbitrary<unknown>;
  if (s.anyOf?.length) arb = fc.oneof(...s.anyOf.map((x) => validValue(x, name, pools, depth)));
  else if (s.enum?.length) arb = fc.constantFrom(...s.enum);
  else if (s.type === 'integer') arb = validInteger(s, pools);
  else if (s.type === 'number')
    arb = fc.oneof(
      fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true }),
      validInteger(s, pools),
      fc.constantFrom(...[s.minimum, s.maximum].filter((v): v is number => v != null)),
    );
  else if (s.type === 'boolean') arb = fc.boolean();
  else if (s.type === 'string') arb = validString(name, s, pools);
  else if (s.type === 'array') {
    const items = s.items ?? {};
    arb = fc.array(depth > 4 ? fc.constant(null) : validValue(items, name, pools, depth + 1), {
      minLength: s.minItems ?? 0,
      maxLength: Math.min(s.maxItems ?? 5, 5),
    });
  } else if (s.type === 'object' || s.properties) arb = objectArb(s, pools, depth + 1);
  else arb = fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null));
  return s.nullable ? fc.oneof({ weight: 4, arbitrary: arb }, { weight: 1, arbitrary: fc.constant(null) }) : arb;
}

/**
 * An object for a schema: all valid-looking about half the time (so handlers are reached, not only
 * validators); else one field swapped for a hostile value, a required field missing, or extra
 * fields (prototype keys among them). Optional fields come and go.
 */
function objectArb(s: JsonSchema, pools: Pools, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const props = s.properties ?? {};
  const names = Object.keys(props);
  const required = new Set(s.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const n of names) model[n] = depth > 4 ? fc.constant(null) : validValue(props[n]!, n, pools, depth);
  const base = names.length ? fc.record(model) : fc.constant({} as Record<string, unknown>);
  const optional = fc.subarray(names.filter((n) => !required.has(n)));
  const someName = fc.constantFrom(...(names.length ? names : ['value']));
  const extraKey = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, 'id', 'role', 'isActive', 'userId'), fc.string({ maxLength: 8 }));
  const mutation = fc.oneof(
    { weight: 5, arbitrary: fc.constant({ kind: 'none' as const }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('poison' as const), name: someName, value: hostileValue }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), name: someName }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('extra' as const), extra: fc.dictionary(extraKey, hostileValue, { minKeys: 1, maxKeys: 3 }) }) },
  );
  return fc.record({ values: base, optional, mutation }).map(({ values, optional: chosen, mutation: m }) => {
    const out: Record<string, unknown> = Object.create(null);
    for (const n of names) if (required.has(n) || chosen.includes(n)) out[n] = values[n];
    if (m.kind === 'poison') out[m.name] = m.value;
    if (m.kind === 'drop') delete out[m.name];
    if (m.kind === 'extra') for (const [k, v] of Object.entries(m.extra)) out[k] = v;
    return { ...out };
  });
}

// ---- Encoding ----

/** encodeURIComponent, but lone surrogates are sent as the (invalid) UTF-8 bytes a client could send. */
function encodeAny(s: string): string {
  let out = '';
  for (const part of s.split(/([\ud800-\udfff])/)) {
    if (/^[\ud800-\udfff]$/.test(part)) {
      const u = part.charCodeAt(0);
      out += [0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)].map((b) => '%' + b.toString(16).toUpperCase()).join('');
    } else {
      try {
        out += encodeURIComponent(part);
      } catch {
        out += encodeURIComponent(part.replace(/[\ud800-\udfff]/g, '?'));
      }
    }
  }
  return out;
}

function queryValue(v: unknown): string[] {
  if (v instanceof Huge) return ['x'.repeat(Math.min(v.length, 20_000))];
  if (Array.isArray(v)) return v.length ? v.flatMap((x) => queryValue(x)) : [''];
  if (v === null || v === undefined) return [''];
  if (typeof v === 'object') return [JSON.stringify(v)];
  return [String(v)];
}

const RAW_QUERY_NOISE = [
  '',
  '',
  '',
  '',
  '&__proto__=1',
  '&constructor=x',
  '&toString=1',
  '&a[b]=1',
  '%',
  '&%zz=1',
  '&x=%E0%A4%A',
  '&&&',
  '&=x',
  '&x=%00',
  '&x=%ED%A0%80',
  '&x=1&x=2',
];

function queryArb(query: Record<string, JsonSchema>, pools: Pools): fc.Arbitrary<string> {
  const names = Object.keys(query);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const n of names) model[n] = valueArb(query[n]!, n, pools);
  const values = names.length ? fc.record(model, { requiredKeys: [] }) : fc.constant({} as Record<string, unknown>);
  const extra = fc.oneof(
    { weight: 5, arbitrary: fc.constant({} as Record<string, unknown>) },
    { weight: 1, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 6 })), hostileValue, { maxKeys: 2 }) },
  );
  return fc.tuple(values, extra, fc.constantFrom(...RAW_QUERY_NOISE)).map(([v, x, noise]) => {
    const pairs: string[] = [];
    for (const [k, val] of [...Object.entries(v), ...Object.entries(x)]) for (const one of queryValue(val)) pairs.push(`${encodeAny(k)}=${encodeAny(one)}`);
    return pairs.join('&') + noise;
  });
}

const HOSTILE_SEGMENTS = [
  '0',
  '-1',
  '2147483648',
  '9007199254740993',
  '1e3',
  '0x10',
  '1.5',
  ' 1',
  '%20',
  '%00',
  '%2F',
  '..',
  '.',
  '%2e%2e',
  'constructor',
  '__proto__',
  'toString',
  '%E2%80%AE',
  '%ED%A0%80',
  '%FF',
  '%',
  'a'.repeat(5_000),
  '%C3%A9',
  '１',
];

function segmentArb(name: string, s: JsonSchema, pools: Pools): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 6, arbitrary: validValue(s, name, pools, 0).map((v) => encodeAny(String(v))) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
    { weight: 1, arbitrary: hostileString.map(encodeAny).filter((x) => x.length > 0) },
  );
}

// ---- Bodies ----

const MALFORMED_JSON = [
  '{',
  '{"a":',
  'nul',
  '[1,2',
  '{"a":1,}',
  "{'a':1}",
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '"just a string"',
  '123',
  'null',
  '[]',
  '{"a":"\\u0000"}',
  '{"firstName":"\\ud800"}',
  '{"a":1e999}',
  '\u0000',
  '\ufeff{}',
  '['.repeat(3_000) + ']'.repeat(3_000),
  '{"a":' + '['.repeat(600) + ']'.repeat(600) + '}',
];
const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'multipart/form-data; boundary=zz',
  'application/octet-stream',
  'Application/JSON',
  '',
];

function jsonBodyArb(schema: JsonSchema, pools: Pools): fc.Arbitrary<FuzzBody> {
  return fc.oneof(
    { weight: 10, arbitrary: objectArb(schema, pools).map((value): FuzzBody => ({ kind: 'json', value })) },
    { weight: 1, arbitrary: hostileValue.map((value): FuzzBody => ({ kind: 'json', value })) },
    { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_JSON).map((payload): FuzzBody => ({ kind: 'raw', contentType: 'application/json', payload })) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...CONTENT_TYPES), objectArb(schema, pools))
        .map(([contentType, v]): FuzzBody => ({ kind: 'raw', contentType: contentType || null, payload: JSON.stringify(v) })),
    },
    { weight: 1, arbitrary: fc.constant<FuzzBody>({ kind: 'none' }) },
  );
}

function csvMutation(pools: Pools): fc.Arbitrary<{ name: string; content: string | Huge }> {
  const file = fc.constantFrom(...pools.csvFiles);
  const mutated = fc.tuple(file, fc.nat(), hostileString).map(([f, at, cell]) => {
    const cells = f.content.split(',');
    cells[at % cells.length] = `"${cell.replace(/"/g, '""')}"`;
    return { name: f.name, content: cells.join(',') };
  });
  const bytes = fc.constantFrom(
    '\u0000\u0001\u0002',
    '\uFFFD\uFFFD',
    'PK\u0003\u0004garbage',
    '',
    'a,b\n',
    '"unclosed\n1,2',
    'courseCode,courseName\n' + 'X,Y\n'.repeat(3),
  );
  return fc.oneof(
    { weight: 6, arbitrary: file },
    { weight: 2, arbitrary: mutated },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('f.csv', 'f.xlsx', 'f.xls'), bytes).map(([name, content]) => ({ name, content })) },
    { weight: 1, arbitrary: fc.constant({ name: 'big.csv', content: new Huge(200_000) }) },
  );
}

const FILE_NAMES = [
  'data.csv',
  'data.CSV',
  'x.xlsx',
  'x.xls',
  'noext',
  'x.exe',
  '.csv',
  '',
  'a\u0000b.csv',
  '../../x.csv',
  'é.csv',
  'a'.repeat(300) + '.csv',
  'x\r\n.csv',
  '\ud800.csv',
  '😀.csv',
];
const BREAKAGES: MultipartBreakage[] = ['truncated', 'no-boundary', 'wrong-boundary', 'no-final-boundary', 'bad-part-header', 'empty'];

function multipartArb(pools: Pools): fc.Arbitrary<FuzzBody> {
  const filePart = fc
    .tuple(
      csvMutation(pools),
      fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.constantFrom(...FILE_NAMES) }),
      fc.oneof({ weight: 8, arbitrary: fc.constant('file') }, { weight: 1, arbitrary: fc.constantFrom('File', 'upload', '__proto__', 'constructor', '') }),
    )
    .map(([f, name, field]): MultipartPart => ({ name: field, fileName: name ?? f.name, content: f.content }));
  const fieldPart = fc
    .tuple(
      fc.constantFrom('type', 'type', 'dryRun', 'constructor', 'toString', 'x'),
      fc.oneof(fc.constantFrom('students', 'courses', 'programs', 'instructors', 'schedules'), hostileString),
    )
    .map(([name, v]): MultipartPart => ({ name, content: v }));
  return fc
    .record({
      file: filePart,
      fields: fc.array(fieldPart, { maxLength: 3 }),
      secondFile: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      manyFields: fc.oneof({ weight: 19, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      breakage: fc.oneof({ weight: 8, arbitrary: fc.constant<MultipartBreakage>('none') }, { weight: 2, arbitrary: fc.constantFrom(...BREAKAGES) }),
      boundary: fc.oneof(
        { weight: 8, arbitrary: fc.constant('----muster-fuzz') },
        { weight: 1, arbitrary: fc.constantFrom('x', '"quoted"', 'a'.repeat(80), 'é') },
      ),
    })
    .map(({ file, fields, secondFile, manyFields, breakage, boundary }): FuzzBody => {
      const parts = [
        ...fields,
        file,
        ...(secondFile ? [file] : []),
        ...(manyFields ? Array.from({ length: 30 }, (_, i): MultipartPart => ({ name: `f${i}`, content: 'v' })) : []),
      ];
      return { kind: 'multipart', parts, boundary, breakage };
    });
}

/** The multipart/form-data body (and content type) a FuzzBody stands for, broken as it says. */
export function renderMultipart(body: Extract<FuzzBody, { kind: 'multipart' }>): { contentType: string; payload: Buffer } {
  const b = body.boundary;
  const chunks: string[] = [];
  for (const p of body.parts) {
    const disposition = p.fileName != null ? `form-data; name="${p.name}"; filename="${p.fileName}"` : `form-data; name="${p.name}"`;
    const header = body.breakage === 'bad-part-header' ? 'this is not a header' : `content-disposition: ${disposition}`;
    chunks.push(`--${b}\r\n${header}\r\n${p.fileName != null ? 'content-type: text/csv\r\n' : ''}\r\n${String(p.content)}\r\n`);
  }
  let text = chunks.join('') + `--${b}--\r\n`;
  if (body.breakage === 'truncated') text = text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  if (body.breakage === 'no-final-boundary') text = chunks.join('');
  if (body.breakage === 'empty') text = '';
  const contentType =
    body.breakage === 'no-boundary'
      ? 'multipart/form-data'
      : body.breakage === 'wrong-boundary'
        ? 'multipart/form-data; boundary=not-the-one'
        : `multipart/form-data; boundary=${b}`;
  return { contentType, payload: Buffer.from(text) };
}

// ---- Requests ----

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Requests for one route: path, query and body from its schema; who sends them and from where. */
export function requestArb(route: RouteSpec, pools: Pools): fc.Arbitrary<FuzzRequest> {
  const paramNames = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  const segments = fc.tuple(...paramNames.map((n) => segmentArb(n, route.params[n] ?? { type: 'string' }, pools)));
  const hasQuery = Object.keys(route.query).length > 0;
  const query = hasQuery
    ? queryArb(route.query, pools)
    : fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: queryArb({ sort: { type: 'string' }, id: { type: 'integer' } }, pools) });
  let body: fc.Arbitrary<FuzzBody>;
  if (route.body) body = jsonBodyArb(route.body, pools);
  else if (WRITE_METHODS.has(route.method)) {
    // No JSON schema on a write: an upload, or an action without a body. Send both kinds.
    body = fc.oneof(
      { weight: 4, arbitrary: multipartArb(pools) },
      { weight: 2, arbitrary: fc.constant<FuzzBody>({ kind: 'none' }) },
      { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_JSON).map((payload): FuzzBody => ({ kind: 'raw', contentType: 'application/json', payload })) },
      { weight: 1, arbitrary: hostileValue.map((value): FuzzBody => ({ kind: 'json', value })) },
    );
  } else
    body = fc.oneof(
      { weight: 9, arbitrary: fc.constant<FuzzBody>({ kind: 'none' }) },
      { weight: 1, arbitrary: fc.constantFrom(...MALFORMED_JSON).map((payload): FuzzBody => ({ kind: 'raw', contentType: 'application/json', payload })) },
    );
  const address = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)).map(([a, b, c]) => `10.${a}.${b}.${c}`);
  const headers = fc.oneof(
    { weight: 12, arbitrary: fc.constant({} as Record<string, string>) },
    { weight: 1, arbitrary: fc.constant({ origin: 'https://attacker.example' }) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('muster_device=\u00e9\u00e9; muster_session=x', 'muster_device=' + 'a'.repeat(5000), 'muster_session=%00', 'muster_session=constructor')
        .map((cookie) => ({ cookie })),
    },
  );
  return fc
    .record({ identity: fc.constantFrom(...IDENTITIES), segments, query, body, remoteAddress: address, headers, matchFile: fc.boolean() })
    .map(({ identity, segments: values, query: q, body: b, remoteAddress, headers: h, matchFile }) => {
      let i = 0;
      const path = route.url.replace(/:([A-Za-z]+)/g, () => values[i++] ?? 'x');
      // Half the time an upload carries the file its path names (POST /api/upload/students gets students.csv).
      const named = matchFile && b.kind === 'multipart' ? pools.csvFiles.find((f) => values.some((v) => f.name === `${v}.csv`)) : undefined;
      const body: FuzzBody =
        named && b.kind === 'multipart'
          ? { ...b, parts: b.parts.map((p) => (p.fileName != null && p.name === 'file' ? { ...p, fileName: named.name, content: named.content } : p)) }
          : b;
      return { identity, method: route.method, path, query: q, body, remoteAddress, headers: h };
    });
}

/** The route specs, from app.apiRoutes and the OpenAPI document generated from the zod schemas. */
export function routeSpecs(
  apiRoutes: { method: string; url: string; access: string }[],
  openapi: { paths: Record<string, Record<string, OpenApiOperation>> },
): RouteSpec[] {
  return apiRoutes
    .filter((r) => r.url.startsWith('/api/'))
    .map((r) => {
      const op = openapi.paths[r.url.replace(/:([A-Za-z]+)/g, '{$1}')]?.[r.method.toLowerCase()];
      const params: Record<string, JsonSchema> = {};
      const query: Record<string, JsonSchema> = {};
      for (const p of op?.parameters ?? []) (p.in === 'path' ? params : p.in === 'query' ? query : {})[p.name] = p.schema ?? {};
      const declaredStatuses = Object.keys(op?.responses ?? {})
        .map(Number)
        .filter(Number.isInteger);
      return {
        method: r.method,
        url: r.url,
        access: r.access,
        params,
        query,
        body: op?.requestBody?.content?.['application/json']?.schema ?? null,
        declaredStatuses,
      };
    })
    .sort((a, b) => (a.url + a.method).localeCompare(b.url + b.method));
}
type OpenApiOperation = {
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, unknown>;
};
