import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_REFERENCE_DIR, apiReferenceFiles } from './document';
import { describeType, renderReference, type OpenApiDocument } from './markdown';

/** The first line where two texts part, for a message that points at the change instead of printing a megabyte. */
function firstDifference(committed: string, generated: string): string {
  const [a, b] = [committed.split('\n'), generated.split('\n')];
  const line = a.findIndex((text, index) => text !== b[index]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '(end)')}, generated ${JSON.stringify(b[at] ?? '(end)')}`;
}

describe('docs/api/ (the committed API reference)', () => {
  it('is what `npm run docs:api` generates from the route definitions now', { timeout: 60_000 }, async () => {
    const files = await apiReferenceFiles();
    expect(Object.keys(files).sort()).toEqual(['openapi.json', 'reference.md']);
    for (const [name, generated] of Object.entries(files)) {
      const committed = await readFile(path.join(API_REFERENCE_DIR, name), 'utf8').catch(() => '');
      if (committed !== generated) {
        expect.fail(
          `docs/api/${name} is not current (${firstDifference(committed, generated)}): ` +
            'run `npm run docs:api` and commit docs/api/.',
        );
      }
    }
  });
});

const document: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Example API', version: '1.2.3' },
  paths: {
    '/things': {
      get: {
        tags: ['things'],
        summary: 'Lists things',
        parameters: [
          { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } },
        ],
        responses: {
          '200': {
            description: 'One page',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    success: { const: true },
                    data: {
                      type: 'object',
                      required: ['items'],
                      properties: {
                        items: {
                          type: 'array',
                          items: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
          '403': {
            description: 'Not allowed',
            content: { 'application/json': { schema: { type: 'object', properties: { success: { const: false } } } } },
          },
        },
      },
    },
    '/things/export': {
      get: {
        tags: ['things'],
        summary: 'As CSV',
        security: [{ sessionToken: [] }],
        responses: { '200': { description: 'The file', content: { 'text/csv': {} } } },
      },
    },
    '/health': { get: { summary: 'Up?', responses: {} } },
    '/things/{id}': {
      post: {
        tags: ['things'],
        summary: 'Saves a thing',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['status'],
                properties: {
                  status: { type: 'string', enum: ['a|b', 'c'] },
                  note: { anyOf: [{ type: 'string', maxLength: 10 }, { type: 'null' }] },
                },
              },
            },
          },
        },
        responses: {},
      },
    },
  },
};

describe('the Markdown reference', () => {
  const markdown = renderReference(document);
  const sectionOf = (heading: string) => markdown.split(/^(?=##+ )/m).find((part) => part.startsWith(heading)) ?? '';

  it('has one section per tag, in the order of first use, with untagged operations last under "other"', () => {
    expect([...markdown.matchAll(/^## (.+)$/gm)].map(([, tag]) => tag)).toEqual(['things', 'other']);
    expect([...markdown.matchAll(/^### `(.+)`$/gm)].map(([, operation]) => operation)).toEqual([
      'GET /things',
      'GET /things/export',
      'POST /things/{id}',
      'GET /health',
    ]);
  });

  it('lists parameters, sign-in and the responses, nested data fields by their path', () => {
    const list = sectionOf('### `GET /things`');
    expect(list).toContain('| `page` | query | no | integer (≥ 1, default `1`) |');
    expect(list).toContain('Sign-in: none.');
    expect(list).toContain('| 403 | Not allowed | error envelope |');
    expect(list).toContain('| `items[].id` | yes | integer |');
    expect(sectionOf('### `GET /things/export`')).toContain('| 200 | The file | `text/csv` |');
    expect(sectionOf('### `GET /things/export`')).toContain('Sign-in: `sessionToken`.');
  });

  it('lists body fields, escaping a "|" that would split the table row', () => {
    const save = sectionOf('### `POST /things/{id}`');
    expect(save).toContain('| `status` | yes | `a\\|b` or `c` |');
    expect(save).toContain('| `note` | no | string (length ≤ 10) or null |');
  });

  it('says what a schema is in a few words, leaving out the "any safe integer" limit of every id', () => {
    expect(describeType({ type: 'integer', exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER })).toBe(
      'integer (> 0)',
    );
    expect(describeType({ type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } })).toBe(
      'array of string (pattern `^[a-z]+$`)',
    );
    expect(describeType({ type: 'object', additionalProperties: { type: 'boolean' } })).toBe('object of boolean');
    expect(describeType({})).toBe('any');
  });

  it('is the same text for the same document', () => {
    expect(renderReference(structuredClone(document))).toBe(markdown);
  });
});
