import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { validateUserLoginQuerySchema } from '../../src/contract/auth';
import { permissionsLookupBodySchema } from '../../src/contract/permissions-lookup';
import { enforcementQuerySchema, enforcementRequestSchema } from '../../src/contract/enforcement';
import { locationParamsSchema } from '../../src/contract/locations';
import { permissionRecordSchema } from '../../src/permissions/features';
import { parametersSchema, requestSchema, responseSchema } from './openapi-schemas';

/** What a parse yields, comparable across schemas: the data, or every issue with its path and message. */
function outcome(result: { success: boolean; data?: unknown; error?: { issues: readonly z.core.$ZodIssue[] } }) {
  return result.success ? { data: result.data } : { issues: result.error?.issues };
}

const nearlyValidSync = fc.record(
  {
    type: fc.oneof(fc.constantFrom('valid', 'monthly_parkers', 'nope'), fc.jsonValue()),
    locationId: fc.oneof(fc.array(fc.oneof(fc.integer({ min: -2, max: 3 }), fc.double(), fc.string())), fc.jsonValue()),
    limit: fc.oneof(fc.integer({ min: -1, max: 2002 }), fc.double(), fc.string()),
    updated_at: fc.oneof(fc.integer({ min: -1 }), fc.string()),
    offset: fc.oneof(fc.integer({ min: -1, max: 100_000_001 }), fc.constant(null)),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

describe('contract schemas wrapped for OpenAPI', () => {
  it('validate exactly as the contract schema: same data, same issues, same messages', () => {
    const wrapped = requestSchema(enforcementRequestSchema);
    fc.assert(
      fc.property(fc.oneof(nearlyValidSync, fc.jsonValue()), (input) => {
        expect(outcome(wrapped.safeParse(input))).toEqual(outcome(z.safeParse(enforcementRequestSchema, input)));
      }),
      { numRuns: 500 },
    );
    const record = requestSchema(permissionRecordSchema);
    for (const input of [{}, { su: 1 }, { e: { v: [1], x: [] } }, { zz: true }, { pc: { v: [0, 1.5, '2'] } }]) {
      expect(outcome(record.safeParse(input))).toEqual(outcome(z.safeParse(permissionRecordSchema, input)));
    }
  });

  it('keep the messages people see', () => {
    const result = requestSchema(permissionsLookupBodySchema).safeParse({ email: 'not-an-email' });
    expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['email'], 'Invalid email address'],
    ]);
  });

  it('refuses a schema whose JSON Schema has no type, which the generator could not document', () => {
    expect(() => responseSchema(z.unknown())).toThrow(/without a JSON Schema type/);
    expect(() => requestSchema(z.union([z.string(), z.object({})]))).toThrow(/without a JSON Schema type/);
  });
});

describe('parameters wrapped for OpenAPI', () => {
  it('coerce and check each parameter as the contract does', () => {
    const params = parametersSchema(locationParamsSchema);
    expect(params.parse({ locationId: '12' })).toEqual({ locationId: 12 });
    for (const locationId of ['abc', '0', '-1', '1.5', '1e400', '0x1', '01', undefined]) {
      const input = { locationId };
      expect(outcome(params.safeParse(input))).toEqual(outcome(z.safeParse(locationParamsSchema, input)));
    }
    expect(params.safeParse({ locationId: '0' }).error?.issues[0]?.message).toBe('must be a positive whole number written in decimal digits');
  });

  it('keep optional parameters optional and strip unknown ones, like the contract', () => {
    const query = parametersSchema(enforcementQuerySchema);
    expect(query.parse({})).toEqual({});
    expect(query.parse({ type: 'expired', other: 'x' })).toEqual({ type: 'expired' });
    const unknownType = { type: 'all' };
    expect(outcome(query.safeParse(unknownType))).toEqual(outcome(z.safeParse(enforcementQuerySchema, unknownType)));
    expect(parametersSchema(validateUserLoginQuerySchema).safeParse({ token: '' }).success).toBe(false);
  });

  it('take only plain objects, since nothing of the object but its fields is kept', () => {
    expect(() => parametersSchema(z.strictObject({ id: z.string() }))).toThrow(/plain object/);
    const checked = z.object({ from: z.string(), to: z.string() }).check(z.refine((range) => range.from <= range.to));
    expect(() => parametersSchema(checked)).toThrow(/plain object/);
  });
});
