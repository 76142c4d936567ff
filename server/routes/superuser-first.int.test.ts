import { describe, expect, it } from 'vitest';
import { DEFAULT_PRODUCTION_ADMIN_HOST } from '../app';
import { idTokenFor } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

/**
 * Issue 34 "400 before 403": the superusers' sections (Database Copy, Enforcement Lite, Mailing) refuse everyone else
 * before the request is read, so a refused caller never gets a 400 that lists the body's or the query's fields.
 */
const SUPERUSER = 'superuser@example.com';
/** Every level of every feature at every location, but not a superuser. */
const ADMIN = 'admin@example.com';
const NO_ACCESS = 'noaccess@example.com';

/** Requests whose body, query or path is wrong: a superuser gets a 400 for each, anyone else a 403 first. */
const MALFORMED = [
  ['POST', '/database-copies', {}],
  ['POST', '/database-copies', { source: 1, tables: 'all', extra: true }],
  ['GET', '/database-copy/counts', undefined],
  ['GET', '/database-copy/sample?database=local&table=nope', undefined],
  ['POST', '/enforcement-lite/locations', {}],
  ['POST', '/enforcement-lite/locations', { name: '' }],
  ['POST', '/enforcement-lite/locations/1', { version: 'x' }],
  ['POST', '/enforcement-lite/locations/01', {}],
  ['POST', '/enforcement-lite/officers', { email: 'not-an-address' }],
  ['POST', '/enforcement-lite/officers/1', {}],
  ['GET', '/enforcement-lite/officers?sort=colour', undefined],
  ['POST', '/mailings', {}],
] as const;

describe.each(BACKENDS)('superusers first on %s', (backend) => {
  const context = useSeededApi(backend);
  const api = () => context.api;
  const callAs = async (email: string, method: string, path: string, json: unknown, headers: Record<string, string> = {}) => {
    const { token } = await api().signIn(email);
    return api().call(method, path, { idToken: idTokenFor(email), session: token, headers, ...(json === undefined ? {} : { json }) });
  };

  it.each(MALFORMED)('%s %s %j: 400 for a superuser', async (method, path, json) => {
    const result = await callAs(SUPERUSER, method, path, json);
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(/^Invalid /);
  });

  it.each(MALFORMED)('%s %s %j: 403 for anyone else, naming no field', async (method, path, json) => {
    for (const email of [ADMIN, NO_ACCESS]) {
      const result = await callAs(email, method, path, json);
      expect(result.status, email).toBe(403);
      expect(result.body.message).toMatch(/^Only a superuser may /);
      expect(result.body.data).toBeUndefined();
    }
  });

  it('Database Copy refuses the production admin console before reading the body too', async () => {
    const result = await callAs(SUPERUSER, 'POST', '/database-copies', {}, { Origin: `https://${DEFAULT_PRODUCTION_ADMIN_HOST}` });
    expect(result.status).toBe(403);
    expect(result.body.message).toMatch(/production admin console/);
  });
});
