import { z } from '@hono/zod-openapi';

/**
 * The contract's schemas are zod/mini, so that the console's bundle stays small. @hono/zod-openapi validates with
 * any zod schema, but its OpenAPI generator reads metadata through classic zod's methods and fails on mini schemas.
 * So routes wrap each contract schema in a classic `z.lazy`, which validates by running the contract schema itself
 * (same issues, same messages, same inferred types) and carries that schema's JSON Schema as its OpenAPI metadata.
 * A `type` in the metadata makes the generator take the metadata as the whole schema object without descending into
 * the wrapped schema; OpenAPI 3.1 schema objects are JSON Schema 2020-12, which is what z.toJSONSchema writes.
 */
type OpenApiMetadata = NonNullable<Parameters<z.ZodType['openapi']>[1]>;

function documented<S extends z.core.$ZodType>(schema: S, io: 'input' | 'output'): z.ZodLazy<S> {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io });
  if (jsonSchema.type === undefined) {
    // Without a type the generator would descend into the mini schema and fail when /openapi.json is requested.
    throw new Error(`Cannot document a schema without a JSON Schema type: ${JSON.stringify(jsonSchema)}`);
  }
  return z.lazy(() => schema).openapi(jsonSchema as OpenApiMetadata);
}

/** A request body schema: documented as what the client sends (before defaults and coercion). */
export function requestSchema<S extends z.core.$ZodType>(schema: S): z.ZodLazy<S> {
  return documented(schema, 'input');
}

/** A response body schema: documented as what the server sends. */
export function responseSchema<S extends z.core.$ZodType>(schema: S): z.ZodLazy<S> {
  return documented(schema, 'output');
}

type DocumentedShape<Shape extends z.core.$ZodShape> = { [K in keyof Shape]: z.ZodLazy<Shape[K]> };

/**
 * Path or query parameters: the generator lists one parameter per key of a classic object, so each field is wrapped
 * on its own. Only plain objects (unknown keys stripped, no object-level checks) are taken, since those are all the
 * wrapper keeps of the object itself.
 */
export function parametersSchema<Shape extends z.core.$ZodShape>(
  schema: z.core.$ZodObject<Shape, z.core.$strip>,
): z.ZodObject<DocumentedShape<Shape>, z.core.$strip> {
  const { shape, catchall, checks } = schema._zod.def;
  if (catchall !== undefined || (checks?.length ?? 0) > 0) {
    throw new Error('Parameters must be a plain object schema: no catchall, no object-level checks.');
  }
  const fields = Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, requestSchema(field)]));
  return z.object(fields as DocumentedShape<Shape>);
}
