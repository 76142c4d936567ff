import fc from 'fast-check';
import { MAX_BODY_BYTES } from '../app';
import { fieldPaths, hostileScalar, hostileValue, validish, type JsonSchema } from './json-schema-arbitrary';

/**
 * Requests for the write-endpoint fuzz test (server/routes/write-fuzz.int.test.ts), made from the API's own
 * /openapi.json: every operation that is not a GET, its path, header and query parameters and its JSON body schema.
 */
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: JsonSchema;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

export interface WriteOperation {
  method: string;
  /** As the document writes it: /promo-codes/{promoCodeId}. */
  path: string;
  parameters: Parameter[];
  body: JsonSchema | undefined;
}

const READ_METHODS = new Set(['get', 'head', 'options', 'trace']);

/** Every write operation of the document (POST, PUT, PATCH, DELETE), in the document's order. */
export function writeOperations(document: OpenApiDocument): WriteOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => !READ_METHODS.has(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        parameters: operation.parameters ?? [],
        body: operation.requestBody?.content['application/json']?.schema,
      })),
  );
}

export interface FuzzRequest {
  /** Who sends it: one of the personas given to `fuzzRequests`. */
  persona: string;
  /** The path with its ids filled in and the query string, ready to send. */
  url: string;
  headers: Record<string, string>;
  /** JSON text, or text that is not JSON; absent: no body at all. */
  body?: string;
  /** What was done to the request, for the failure report. */
  mutation: string;
}

/** Ids a client should not send: not positive, past 2^53, not a number, written with a leading zero. */
const ODD_IDS = ['0', '-1', String(2 ** 53), String(2 ** 63), 'abc', '01', '1.5', '1e3', '%20', '9'.repeat(20), 'null', '%F0%9F%92%A9'];
/** Idempotency keys a client should not send (a missing one is another case): empty, too long, spaces, non-ASCII. */
const ODD_KEYS = ['', ' ', 'has space', 'x'.repeat(256), 'clé-é', '\t'];
const MALFORMED_JSON = [
  '',
  '{',
  '}',
  '{"a":}',
  '{"a":1,}',
  "{'a':1}",
  'not json',
  'null',
  '"a string"',
  '[]',
  '{"a":1}{"b":2}',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":1e999}',
  '\u0000',
  '\uFEFF{}',
  '['.repeat(5_000) + ']'.repeat(5_000),
  `{"a":${'['.repeat(3_000)}${']'.repeat(3_000)}}`,
];
/** A body past the server's limit: refused before it is read (413). Built once, sent now and then. */
const OVERSIZED_BODY = `{"a":"${'x'.repeat(MAX_BODY_BYTES + 16)}"}`;

function setAt(target: unknown, path: string[], value: unknown, remove: boolean): unknown {
  if (path.length === 0 || typeof target !== 'object' || target === null || Array.isArray(target)) return target;
  const [head, ...rest] = path as [string, ...string[]];
  const copy: Record<string, unknown> = { ...(target as Record<string, unknown>) };
  if (rest.length > 0) copy[head] = setAt(copy[head], rest, value, remove);
  else if (remove) delete copy[head];
  else copy[head] = value;
  return copy;
}

type Body = { body: string; contentType: string; mutation: string };

const asJson = (mutation: string) => (value: unknown): Body => ({
  body: JSON.stringify(value) ?? 'null',
  contentType: 'application/json',
  mutation,
});

const withExtraField = (value: unknown, key: string, extra: unknown) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value, [key || 'extra']: extra } : value;

/** The JSON body, valid-ish or broken in one way; or text that is not JSON. */
function bodies(schema: JsonSchema): fc.Arbitrary<Body> {
  const valid = validish(schema);
  const mutations: fc.WeightedArbitrary<Body>[] = [
    { weight: 6, arbitrary: valid.map(asJson('valid-ish')) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.string({ maxLength: 12 }), hostileScalar)
        .map(([value, key, extra]) => asJson(`extra field ${JSON.stringify(key)}`)(withExtraField(value, key, extra))),
    },
    { weight: 1, arbitrary: hostileScalar.map(asJson('whole body wrong')) },
    { weight: 1, arbitrary: fc.array(valid, { maxLength: 2 }).map(asJson('array for the object')) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...MALFORMED_JSON).map((body) => ({ body, contentType: 'application/json', mutation: 'malformed JSON' })),
    },
    {
      weight: 1,
      arbitrary: valid.map((value) => ({ body: JSON.stringify(value), contentType: 'text/plain', mutation: 'JSON sent as text/plain' })),
    },
  ];
  const fields = fieldPaths(schema);
  if (fields.length > 0) {
    const oneField = fc.tuple(valid, fc.constantFrom(...fields));
    const wrong = oneField.chain(([value, field]) =>
      hostileValue(field.schema).map((broken) => asJson(`${field.path.join('.')} wrong`)(setAt(value, field.path, broken, false))),
    );
    const missing = oneField.map(([value, field]) => asJson(`${field.path.join('.')} missing`)(setAt(value, field.path, undefined, true)));
    const nulled = oneField.map(([value, field]) => asJson(`${field.path.join('.')} null`)(setAt(value, field.path, null, false)));
    mutations.push({ weight: 5, arbitrary: wrong }, { weight: 2, arbitrary: missing }, { weight: 1, arbitrary: nulled });
  }
  return fc.oneof(...mutations);
}

/** Mostly ids of records that exist (every table's first few, seeded or made by earlier cases), else odd ones. */
const pathIds: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.integer({ min: 1, max: 12 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_IDS) },
);

function headerValue(parameter: Parameter): fc.Arbitrary<string | undefined> {
  const valid = parameter.schema.pattern ? validish(parameter.schema).map(String) : fc.uuid();
  return fc.oneof(
    { weight: 5, arbitrary: valid },
    // The same key again: a replay, answered from what the first request did (or refused, if the request differs).
    { weight: 2, arbitrary: fc.constantFrom('fuzz-replay-1', 'fuzz-replay-2') },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom(...ODD_KEYS) },
  );
}

function queryValue(parameter: Parameter): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 3, arbitrary: validish(parameter.schema).map(String) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: hostileScalar.map((value) => (typeof value === 'string' ? value : JSON.stringify(value))) },
  );
}

/**
 * Requests to one write operation: real and odd path ids, valid-ish and hostile bodies and headers, each sent by one
 * of `personas` (names with weights).
 */
export function fuzzRequests(operation: WriteOperation, personas: { name: string; weight: number }[]): fc.Arbitrary<FuzzRequest> {
  const byPlace = (place: Parameter['in']) => operation.parameters.filter((parameter) => parameter.in === place);
  const path = fc.tuple(...byPlace('path').map((parameter) => pathIds.map((id) => [parameter.name, id] as const)));
  const headers = fc.tuple(...byPlace('header').map((parameter) => headerValue(parameter).map((value) => [parameter.name, value] as const)));
  const query = fc.tuple(...byPlace('query').map((parameter) => queryValue(parameter).map((value) => [parameter.name, value] as const)));
  const body = operation.body
    ? fc.oneof(
        { weight: 30, arbitrary: bodies(operation.body) },
        { weight: 1, arbitrary: fc.constant({ body: OVERSIZED_BODY, contentType: 'application/json', mutation: 'body over the size limit' }) },
        { weight: 1, arbitrary: fc.constant(undefined) },
      )
    : fc.constant(undefined);
  const persona = fc.oneof(...personas.map(({ name, weight }) => ({ weight, arbitrary: fc.constant(name) })));
  return fc.record({ persona, path, headers, query, body }).map((drawn) => {
    let url = operation.path;
    for (const [name, id] of drawn.path) url = url.replace(`{${name}}`, id);
    const search = new URLSearchParams(drawn.query.flatMap(([name, value]) => (value === undefined ? [] : [[name, value]])));
    if (search.size > 0) url += `?${search}`;
    const sent: Record<string, string> = Object.fromEntries(drawn.headers.filter(([, value]) => value !== undefined)) as Record<string, string>;
    if (drawn.body) sent['Content-Type'] = drawn.body.contentType;
    const missing = drawn.headers.filter(([, value]) => value === undefined).map(([name]) => `no ${name}`);
    return {
      persona: drawn.persona,
      url,
      headers: sent,
      ...(drawn.body ? { body: drawn.body.body } : {}),
      mutation: [drawn.body?.mutation ?? 'no body', ...missing].join(', '),
    };
  });
}
