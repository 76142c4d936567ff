import fc from 'fast-check';

/**
 * Just enough JSON Schema (2020-12, as `z.toJSONSchema` writes the contract into /openapi.json) to make requests from.
 * No maintained npm package turns JSON Schema into fast-check 4 arbitraries (json-schema-fast-check is one release on
 * fast-check 1; zod-fast-check wants zod 3 and fast-check 3), so this is ours: about what the document uses, no more.
 */
export interface JsonSchema {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  default?: unknown;
}

/** Arrays stay short: a case is one request, and a long valid array tells little more than a short one. */
const MAX_GENERATED_ITEMS = 3;

/**
 * Strings a person or a program might type into any free text field: dates (real ones, and days that are not on the
 * calendar), e-mail addresses (and ones too long for RFC 5321), codes, plates, unicode. Free text fields in the
 * document carry no format (the contract parses dates itself), so every one of them is offered all of these.
 */
const TYPED_TEXT = fc.oneof(
  fc.constantFrom(
    '2026-06-01T00:00:00Z',
    '2026-06-01T00:00:00-05:00',
    '2026-12-31T23:59:59.999+01:00',
    '2026-06-01',
    '2026-02-30T00:00:00Z',
    '2026-11-31T12:00:00-06:00',
    '2027-04-31T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-06-01T24:00:00Z',
    '2026-06-01T00:00:00+25:00',
    '0000-01-01T00:00:00Z',
    '275760-09-13T00:00:00Z',
    'America/Chicago',
    'Mars/Olympus_Mons',
    'officer@example.com',
    `${'a'.repeat(65)}@example.com`,
    `a@${'b'.repeat(250)}.com`,
    'SPRING10',
    'ABC1234',
    'Robert\'); DROP TABLE users;--',
    '<script>alert(1)</script>',
    '\u0000',
    '\uD800',
    '👩🏽‍🚒 Zoë Ångström',
    ' ',
    '',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** Date-times as the console sends them: on the calendar, with an offset, around the test clock (2026-03-02). */
const INSTANTS = fc
  .tuple(
    fc.date({ min: new Date('2026-02-01T00:00:00Z'), max: new Date('2027-03-01T00:00:00Z'), noInvalidDate: true }),
    fc.constantFrom('Z', '-05:00', '-06:00', '+01:00', '+05:30'),
  )
  .map(([date, offset]) => date.toISOString().replace('Z', offset === 'Z' ? 'Z' : offset));

/**
 * Free text fields carry no format in the document, so their names say what a client would put there: without these
 * hints almost no valid-ish body would pass the contract, and the handlers behind it would go untried.
 */
const TEXT_BY_NAME: [RegExp, fc.Arbitrary<string>][] = [
  [/zone/i, fc.constantFrom('America/Chicago', 'America/New_York', 'America/Los_Angeles', 'America/Denver')],
  [/(_at|_from|_to|date|time)$/i, INSTANTS],
  [/email/i, fc.stringMatching(/^[a-z][a-z0-9]{0,12}$/).map((local) => `${local}@example.com`)],
  [/plate/i, fc.stringMatching(/^[A-Z0-9]{1,8}$/)],
  [/code$/i, fc.stringMatching(/^[A-Z0-9]{4,12}$/)],
  [/name|address|reason|body|subject|status|note/i, fc.constantFrom('Union Station Garage', 'Refund of a double charge', 'Dear parker', 'Olivia Officer', 'active')],
];

/** Integers near the ends of the range and small ones, so that ids and versions sometimes name real records. */
/**
 * How a body is made: `careful`, every value is the plausible kind (small ids and versions, text as its field's name
 * suggests), so that many bodies pass the contract and reach the handler; otherwise anything the schema allows
 * (2^53 for an id, any text). One choice per body: mixed per field, a body of thirty arrays would never pass.
 */
interface Mode {
  careful: boolean;
  name: string;
}

function integers(schema: JsonSchema, { careful }: Mode): fc.Arbitrary<number> {
  const min = schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : (schema.minimum ?? -(2 ** 31));
  const max = schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : (schema.maximum ?? 2 ** 31);
  // The first few ids of a table exist (seeded), and versions start at 1.
  const low = Math.max(min, 0);
  const small = fc.integer({ min: low, max: Math.max(low, Math.min(max, low + 5)) });
  if (careful) return small;
  return fc.oneof(
    { weight: 2, arbitrary: small },
    { weight: 2, arbitrary: fc.integer({ min, max }) },
    { weight: 1, arbitrary: fc.constantFrom(min, max) },
  );
}

function strings(schema: JsonSchema, { careful, name }: Mode): fc.Arbitrary<string> {
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  const hinted = TEXT_BY_NAME.find(([pattern]) => pattern.test(name))?.[1];
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 60, 60);
  if (careful) return hinted ?? fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,30}[a-z]$/);
  return fc.oneof(hinted ?? fc.string({ minLength, maxLength }), TYPED_TEXT, fc.string({ minLength, maxLength }));
}

function objects(schema: JsonSchema, mode: Mode): fc.Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(
    Object.entries(properties).map(([name, field]) => [name, shaped(field, { ...mode, name })]),
  );
  // Fields with a default may be left out; the rest of the required ones are always there.
  const requiredKeys = (schema.required ?? []).filter((name) => properties[name]?.default === undefined);
  return fc.record(model, { requiredKeys });
}

function ofType(type: string, schema: JsonSchema, mode: Mode): fc.Arbitrary<unknown> {
  switch (type) {
    case 'object':
      return objects(schema, mode);
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? MAX_GENERATED_ITEMS, MAX_GENERATED_ITEMS));
      return fc.array(shaped(schema.items ?? {}, mode), { minLength, maxLength });
    }
    case 'string':
      return strings(schema, mode);
    case 'integer':
      return integers(schema, mode);
    case 'number':
      return mode.careful
        ? integers(schema, mode)
        : fc.oneof(integers(schema, mode), fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum, max: schema.maximum }));
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function shaped(schema: JsonSchema, mode: Mode): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => shaped(branch, mode)));
  if (schema.allOf?.[0]) return shaped(schema.allOf[0], mode);
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => ofType(type, schema, mode)));
  if (schema.type) return ofType(schema.type, schema, mode);
  return schema.properties ? objects(schema, mode) : fc.jsonValue({ maxDepth: 2 });
}

/**
 * Values that fit the schema's shape (types, enums, required fields, ranges, patterns), though not every rule the
 * contract adds (cross-field checks, real dates, ids that exist): the requests a careless but well-meaning client
 * would send. `name` is the field's, for free text.
 */
export function validish(schema: JsonSchema, name = ''): fc.Arbitrary<unknown> {
  return fc.oneof(shaped(schema, { careful: true, name }), shaped(schema, { careful: false, name }));
}

/** Scalars of the wrong kind for almost any field, JSON's edge numbers among them. */
export const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    -0,
    0.5,
    1e308,
    -1e308,
    2 ** 31,
    2 ** 53,
    2 ** 63,
    -(2 ** 53),
    Number.MAX_SAFE_INTEGER + 2,
    1e-320,
    '',
    '0',
    '-1',
    'NaN',
    'Infinity',
    '1e309',
    '9'.repeat(40),
    'null',
    'true',
    [],
    {},
    [null],
    { '': null },
    // Own keys named like the prototype's (an object literal's __proto__ would set the prototype instead).
    JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
    { constructor: { prototype: { polluted: true } } },
  ),
  fc.double(),
  fc.integer(),
  TYPED_TEXT,
);

/** A field's value broken in one way: wrong type, edge number, a huge string, or an array/object where the other belongs. */
export function hostileValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: hostileScalar },
    { weight: 1, arbitrary: fc.constantFrom(300, 5_000, 70_000).map((length) => 'x'.repeat(length)) },
    { weight: 1, arbitrary: validish(schema).map((value) => [value]) },
    { weight: 1, arbitrary: validish(schema).map((value) => ({ value })) },
    { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 3 }) },
  );
}

/** Every field path of an object schema (nested objects included), for mutations aimed at one field. */
export function fieldPaths(schema: JsonSchema, prefix: string[] = []): { path: string[]; schema: JsonSchema }[] {
  const object = schema.properties ? schema : (schema.anyOf ?? schema.oneOf ?? []).find((branch) => branch.properties);
  if (!object?.properties) return [];
  return Object.entries(object.properties).flatMap(([name, field]) => [
    { path: [...prefix, name], schema: field },
    ...fieldPaths(field, [...prefix, name]),
  ]);
}
