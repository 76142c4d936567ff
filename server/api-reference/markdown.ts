/** The parts of an OpenAPI 3.1 document the Markdown reference reads. */
export interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  $ref?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
  description?: string;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}
type Content = Record<string, { schema?: Schema }>;
interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Content };
  responses?: Record<string, { description?: string; content?: Content }>;
}
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components?: { securitySchemes?: Record<string, { description?: string }> };
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const JSON_TYPE = 'application/json';
/** Zod writes "any safe integer" as this maximum; saying it on every id would only be noise. */
const NO_LIMIT = Number.MAX_SAFE_INTEGER;

const code = (text: string) => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
const table = (head: string[], rows: string[][]) =>
  [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)];
const literal = (value: unknown) => code(typeof value === 'string' ? value : JSON.stringify(value));
const anchor = (heading: string) => heading.toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');

function limits(schema: Schema): string[] {
  const facts: string[] = [];
  if (schema.minimum !== undefined) facts.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) facts.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined && schema.maximum !== NO_LIMIT) facts.push(`≤ ${schema.maximum}`);
  if (schema.exclusiveMaximum !== undefined) facts.push(`< ${schema.exclusiveMaximum}`);
  if (schema.minLength !== undefined) facts.push(`length ≥ ${schema.minLength}`);
  if (schema.maxLength !== undefined) facts.push(`length ≤ ${schema.maxLength}`);
  if (schema.minItems !== undefined) facts.push(`≥ ${schema.minItems} items`);
  if (schema.maxItems !== undefined) facts.push(`≤ ${schema.maxItems} items`);
  if (schema.format) facts.push(schema.format);
  if (schema.pattern) facts.push(`pattern ${code(schema.pattern)}`);
  if (schema.default !== undefined) facts.push(`default ${literal(schema.default)}`);
  return facts;
}

/** A schema in a few words: `integer (≥ 0)`, `` `active` or `inactive` ``, `array of object`. */
export function describeType(schema: Schema): string {
  if (schema.$ref) return code(schema.$ref.split('/').pop() ?? schema.$ref);
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum) return schema.enum.map(literal).join(' or ');
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(describeType).join(' or ');
  if (schema.allOf) return schema.allOf.map(describeType).join(' and ');
  const types = typeof schema.type === 'string' ? [schema.type] : (schema.type ?? []);
  const base =
    types
      .map((type) => {
        if (type === 'array') return `array of ${schema.items ? describeType(schema.items) : 'any'}`;
        if (type === 'object' && !schema.properties && typeof schema.additionalProperties === 'object') {
          return `object of ${describeType(schema.additionalProperties)}`;
        }
        return type;
      })
      .join(' or ') || 'any';
  const facts = limits(schema);
  return facts.length > 0 ? `${base} (${facts.join(', ')})` : base;
}

/** The object a field's schema holds (itself, an array's items, or the one object of a nullable union), if any. */
function nestedObject(schema: Schema): { schema: Schema; suffix: string } | undefined {
  if (schema.properties) return { schema, suffix: '.' };
  if (schema.items?.properties) return { schema: schema.items, suffix: '[].' };
  const objects = (schema.anyOf ?? schema.oneOf ?? []).map(nestedObject).filter((found) => found !== undefined);
  return objects.length === 1 ? objects[0] : undefined;
}

/** One row per field, nested objects' fields after their parent as `parent.child` / `list[].child`. */
function fieldRows(schema: Schema, prefix = ''): string[][] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, field]) => {
    const type = describeType(field) + (field.description ? ` — ${field.description}` : '');
    const row = [code(prefix + name), schema.required?.includes(name) ? 'yes' : 'no', type];
    const nested = nestedObject(field);
    return [row, ...(nested ? fieldRows(nested.schema, prefix + name + nested.suffix) : [])];
  });
}

function fieldTable(schema: Schema): string[] {
  const nested = nestedObject(schema);
  if (!nested) return [`${describeType(schema)}.`];
  return table(['Field', 'Required', 'Type'], fieldRows(nested.schema, nested.suffix === '.' ? '' : '[].'));
}

/** What a response carries: the envelope's `data`, or the media type of a file or stream. */
function responseBody(content: Content | undefined): { summary: string; data?: Schema } {
  const json = content?.[JSON_TYPE]?.schema;
  if (!json) return { summary: Object.keys(content ?? {}).map(code).join(', ') || '—' };
  if (json.properties?.success?.const === false) return { summary: 'error envelope' };
  const data = json.properties?.data;
  return data ? { summary: `\`data\`: ${describeType(data)}`, data } : { summary: describeType(json) };
}

function renderOperation(method: string, path: string, operation: Operation): string[] {
  const lines = [`### ${code(`${method.toUpperCase()} ${path}`)}`, ''];
  if (operation.summary) lines.push(operation.summary, '');
  if (operation.description) lines.push(operation.description, '');
  const security = operation.security ?? [];
  const signIn = security.map((requirement) => Object.keys(requirement).map(code).join(' + ')).join(' or ');
  lines.push(`Sign-in: ${signIn || 'none'}.`, '');

  if (operation.parameters?.length) {
    const rows = operation.parameters.map((parameter) => [
      code(parameter.name),
      parameter.in,
      parameter.required ? 'yes' : 'no',
      (parameter.schema ? describeType(parameter.schema) : 'any') +
        (parameter.description ? ` — ${parameter.description}` : ''),
    ]);
    lines.push('**Parameters**', '', ...table(['Name', 'In', 'Required', 'Type'], rows), '');
  }

  const body = operation.requestBody?.content?.[JSON_TYPE]?.schema;
  if (body) lines.push(`**Body** (${code(JSON_TYPE)})`, '', ...fieldTable(body), '');

  const responses = Object.entries(operation.responses ?? {});
  const bodies = responses.map(([status, response]) => ({ status, ...responseBody(response.content) }));
  lines.push(
    '**Responses**',
    '',
    ...table(
      ['Status', 'Meaning', 'Body'],
      responses.map(([status, response], index) => [status, response.description ?? '', bodies[index]?.summary ?? '']),
    ),
    '',
  );
  for (const { status, data } of bodies) {
    if (data && nestedObject(data)) lines.push(`**${code('data')} on ${status}**`, '', ...fieldTable(data), '');
  }
  return lines;
}

/**
 * The Markdown reference of docs/api/reference.md: one section per tag (in the order the document first uses them),
 * each operation with its method and path, summary, sign-in, parameters, body fields and responses. Pure: the same
 * document always gives the same text.
 */
export function renderReference(document: OpenApiDocument): string {
  const byTag = new Map<string, { method: string; path: string; operation: Operation }[]>();
  for (const tag of document.tags ?? []) byTag.set(tag.name, []);
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), { method, path, operation }]);
    }
  }
  const tags = [...byTag].filter(([, operations]) => operations.length > 0);
  const schemes = Object.entries(document.components?.securitySchemes ?? {});
  const lines = [
    `# ${document.info.title} ${document.info.version}`,
    '',
    '<!-- Generated from the route definitions by `npm run docs:api`; do not edit. -->',
    '',
    `Generated from the OpenAPI ${document.openapi} document ([openapi.json](openapi.json)). ` +
      'Rules a schema cannot state (the envelope, headers, error codes, permissions, paging, idempotency, CSV) are in ' +
      '[docs/api.md](../api.md).',
    '',
    ...(document.info.description ? [document.info.description, ''] : []),
    ...(schemes.length > 0
      ? ['Sign-in schemes:', '', ...schemes.map(([name, scheme]) => `- ${code(name)}: ${scheme.description ?? ''}`), '']
      : []),
    ...tags.map(([tag, operations]) => `- [${tag}](#${anchor(tag)}) (${operations.length})`),
    '',
  ];
  for (const [tag, operations] of tags) {
    lines.push(`## ${tag}`, '');
    const description = document.tags?.find((candidate) => candidate.name === tag)?.description;
    if (description) lines.push(description, '');
    for (const { method, path, operation } of operations) lines.push(...renderOperation(method, path, operation));
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
