import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CopyCounts, CopyOptions, CopySample, DatabaseCopy } from '../../src/contract/database-copy';
import { localCopyDatabases, postgresCopyDatabases, type CopyDatabases } from '../copy/copy-databases';
import type { Db } from '../db/db';
import { failInterruptedCopies } from '../db/database-copies';
import { migrate } from '../db/migrate';
import { openPostgresDatabase } from '../db/postgres';
import { ensureDemoEnforcementData, ensureDemoPaymentHistory } from '../db/seed/demo-enforcement';
import { applyDemoSeed } from '../db/seed/demo-seed';
import { createTestApi, idTokenFor } from '../testing/test-api';
import { BACKENDS, openTestDatabase, type Backend } from '../testing/test-database';
import { inject } from 'vitest';

const SUPERUSER = 'superuser@example.com';
/** Every level of every feature at every location, but not a superuser. */
const ADMIN = 'admin@example.com';
const PRODUCTION_HOST = 'admin.example.test';
const COPIED = ['locations', 'bookings', 'monthly_parkers', 'transactions'] as const;

/**
 * The API's own database ("local", demo-seeded), an empty migrated "staging", and "live", marked production. On
 * PostgreSQL they are databases of the test cluster, so the copy streams with COPY; on PGlite it goes in batches.
 */
async function openFixture(backend: Backend) {
  if (backend === 'pglite') {
    const home = await openTestDatabase('pglite');
    const local = localCopyDatabases(home.db, 'memory://');
    const databases: CopyDatabases = {
      list: () => [...local.list(), { name: 'live', production: true, engine: 'pglite' }],
      open: (name) => local.open(name === 'live' ? 'local' : name),
      close: () => local.close(),
    };
    return {
      home: home.db,
      databases,
      staging: async () => (await databases.open('staging'))!.db,
      dispose: async () => {
        await databases.close();
        await home.dispose();
      },
    };
  }
  // Two databases of the test cluster (not schemas: pg_trgm lives in one schema per database), streamed with COPY.
  const url = new URL(inject('databaseUrl'));
  const admin = new pg.Client({ connectionString: url.href });
  await admin.connect();
  const names = ['home', 'staging'].map((name) => `copy_${name}_${randomBytes(5).toString('hex')}`);
  for (const name of names) await admin.query(`CREATE DATABASE ${name}`);
  const config = (name: string) => ({ connectionString: Object.assign(new URL(url.href), { pathname: `/${name}` }).href });
  const home = openPostgresDatabase({ ...config(names[0]!), max: 3 });
  const staging = openPostgresDatabase({ ...config(names[1]!), max: 2 });
  await migrate(staging);
  const databases = postgresCopyDatabases([
    { name: 'local', production: false, clientConfig: config(names[0]!) },
    { name: 'staging', production: false, clientConfig: config(names[1]!) },
    { name: 'live', production: true, clientConfig: config(names[0]!) },
  ]);
  return {
    home,
    databases,
    staging: async () => staging,
    dispose: async () => {
      await databases.close();
      await home.close();
      await staging.close();
      for (const name of names) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

/** Adds "gone": configured, but every query fails (a server that is down). */
function withUnreachable<F extends { databases: CopyDatabases }>(fixture: F): F {
  const { databases } = fixture;
  const down = { query: () => Promise.reject(new Error('connection refused')) } as unknown as Db;
  return {
    ...fixture,
    databases: {
      list: () => [...databases.list(), { name: 'gone', production: false, engine: 'postgres' as const }],
      open: (name: string) => (name === 'gone' ? Promise.resolve({ engine: 'pglite' as const, db: down }) : databases.open(name)),
      close: () => databases.close(),
    },
  };
}

/** Every row of a table as text, in key order: "exactly as before" compares these. */
async function contents(db: Db, table: string, key: string): Promise<string> {
  const { rows } = await db.query<{ all: string | null }>(
    `SELECT string_agg(t::text, E'\\n' ORDER BY ${key}) AS all FROM ${table} t`,
  );
  return rows[0]?.all ?? '';
}

describe.each(BACKENDS)('database copy on %s', (backend) => {
  let fixture: Awaited<ReturnType<typeof openFixture>>;
  let api: ReturnType<typeof createTestApi>;
  const copies = async () =>
    Number((await fixture.home.query<{ n: number }>('SELECT count(*)::int AS n FROM database_copies')).rows[0]!.n);

  beforeAll(async () => {
    fixture = withUnreachable(await openFixture(backend));
    await migrate(fixture.home);
    await applyDemoSeed(fixture.home);
    await ensureDemoEnforcementData(fixture.home, 400, new Date('2026-03-02T15:00:00Z'));
    await ensureDemoPaymentHistory(fixture.home, { days: 2, paymentsPerDay: 10, now: new Date('2026-03-02T15:00:00Z') });
    await fixture.home.query(`UPDATE monthly_parkers SET email = 'real.person' || monthly_parker_id || '@example.com'`);
    api = createTestApi(fixture.home, { copyDatabases: fixture.databases, productionAdminHost: PRODUCTION_HOST });
  });
  afterAll(async () => {
    expect(api?.serverErrors ?? []).toEqual([]);
    await fixture?.dispose();
  });

  /** A signed-in call with extra headers (an Origin). */
  async function callAs<T>(email: string, method: string, path: string, options: { json?: unknown; origin?: string } = {}) {
    const { token } = await api.signIn(email);
    return api.call<T>(method, path, {
      idToken: idTokenFor(email),
      session: token,
      json: options.json,
      headers: options.origin ? { Origin: options.origin } : {},
    });
  }

  async function finished(copyId: number): Promise<DatabaseCopy> {
    for (let attempt = 0; attempt < 1000; attempt += 1) {
      const copy = (await api.getAs<DatabaseCopy>(SUPERUSER, `/database-copies/${copyId}`)).body.data!;
      if (copy.status !== 'running') return copy;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`copy ${copyId} did not finish`);
  }

  const request = (overrides: Record<string, unknown> = {}) => ({
    source: 'local',
    target: 'staging',
    tables: [...COPIED],
    mask: true,
    confirm_target: 'staging',
    ...overrides,
  });

  it('lists the configured databases and the copyable tables with what each brings along', async () => {
    const result = await api.getAs<CopyOptions>(SUPERUSER, '/database-copy/databases');
    expect(result.status).toBe(200);
    expect(result.body.data!.databases.map((db) => [db.name, db.production])).toEqual([
      ['local', false],
      ['staging', false],
      ['live', true],
      ['gone', false],
    ]);
    const transactions = result.body.data!.tables.find((table) => table.name === 'transactions')!;
    expect(transactions.includes).toEqual(['refund_tickets', 'refund_ticket_notes', 'refunds']);
    expect(transactions.requires).toEqual(['locations']);
    expect(transactions.masked_columns).toEqual(['phone_number']);
  });

  it('counts rows per table in each database', async () => {
    const local = (await api.getAs<CopyCounts>(SUPERUSER, '/database-copy/counts?database=local')).body.data!;
    const { rows } = await fixture.home.query<{ n: number }>('SELECT count(*)::int AS n FROM transactions');
    expect(local.counts.transactions).toBe(rows[0]!.n);
    expect(local.counts.transactions).toBeGreaterThan(0);
    const staging = (await api.getAs<CopyCounts>(SUPERUSER, '/database-copy/counts?database=staging')).body.data!;
    expect(staging.counts.transactions).toBe(0);
    expect((await api.getAs(SUPERUSER, '/database-copy/counts?database=nowhere')).status).toBe(404);
  });

  it('copies the chosen tables with personal data masked, records the copy, and sets the sequences', async () => {
    const started = await api.postAs<DatabaseCopy>(SUPERUSER, '/database-copies', request());
    expect(started.status).toBe(200);
    expect(started.body.data!.status).toBe('running');
    // transactions bring their refunds and tickets along (their rows would lose their payments otherwise).
    expect(started.body.data!.tables.map((t) => t.table)).toEqual([
      'locations', 'bookings', 'monthly_parkers', 'transactions', 'refund_tickets', 'refund_ticket_notes', 'refunds',
    ]);
    const copy = await finished(started.body.data!.copy_id);
    expect(copy).toMatchObject({ status: 'done', error: null, started_by_email: SUPERUSER, masked: true });

    const source = (await api.getAs<CopyCounts>(SUPERUSER, '/database-copy/counts?database=local')).body.data!;
    const target = (await api.getAs<CopyCounts>(SUPERUSER, '/database-copy/counts?database=staging')).body.data!;
    for (const { table, rows, status } of copy.tables) {
      expect(status).toBe('done');
      expect(rows).toBe(source.counts[table]);
      expect(target.counts[table]).toBe(source.counts[table]);
    }
    expect(copy.rows_copied).toBe(copy.tables.reduce((sum, t) => sum + t.rows, 0));

    const staging = await fixture.staging();
    const parkers = await staging.query<{
      fname: string;
      lname: string;
      email: string;
      mobilephone: string | null;
      parkerid: string;
    }>('SELECT fname, lname, email, mobilephone, parkerid::text FROM monthly_parkers');
    expect(parkers.rows.length).toBeGreaterThan(0);
    for (const parker of parkers.rows) {
      expect(parker.fname).toBe('Parker');
      expect(parker.lname).toBe(parker.parkerid);
      expect(parker.email).toBe(`parker-${parker.parkerid}@example.invalid`);
      if (parker.mobilephone !== null) expect(parker.mobilephone).toMatch(/^555-01\d\d$/);
    }
    const phones = await staging.query<{ phone_number: string | null; phone_last4: string | null }>(
      'SELECT phone_number, phone_last4 FROM transactions WHERE phone_number IS NOT NULL',
    );
    expect(phones.rows.length).toBeGreaterThan(0);
    for (const row of phones.rows) {
      expect(row.phone_number).toMatch(/^555-01\d\d$/);
      expect(row.phone_last4).toBe(row.phone_number!.replace('-', '').slice(-4));
    }
    const sample = (
      await api.getAs<CopySample>(SUPERUSER, '/database-copy/sample?database=staging&table=monthly_parkers')
    ).body.data!;
    expect(sample.columns).toContain('fname');
    expect(sample.rows[0]![sample.columns.indexOf('fname')]).toBe('Parker');

    // The next payment on the target gets a fresh id.
    const next = await staging.query<{ fresh: boolean }>(
      `SELECT nextval(pg_get_serial_sequence('transactions', 'transaction_id')) > (SELECT max(transaction_id) FROM transactions) AS fresh`,
    );
    expect(next.rows[0]!.fresh).toBe(true);

    const listed = (await api.getAs<DatabaseCopy[]>(SUPERUSER, '/database-copies')).body.data!;
    expect(listed[0]).toMatchObject({ copy_id: copy.copy_id, status: 'done' });
    const audits = await fixture.home.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_log WHERE entity = 'database_copy' AND entity_id = $1",
      [String(copy.copy_id)],
    );
    expect(audits.rows[0]!.n).toBe(1);
  });

  it('leaves the target exactly as it was when it fails half-way', async () => {
    const staging = await fixture.staging();
    const before = await Promise.all([
      contents(staging, 'transactions', 'transaction_id'),
      contents(staging, 'monthly_parkers', 'monthly_parker_id'),
      contents(staging, 'locations', 'location_id'),
    ]);
    expect(before[0]).not.toBe('');
    // A target that refuses the 7th payment it is given, half-way through the copy.
    await staging.exec(`
      CREATE SEQUENCE copy_fault_rows;
      CREATE FUNCTION copy_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('copy_fault_rows') = 7 THEN RAISE EXCEPTION 'target refused row 7'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER copy_fault BEFORE INSERT ON transactions FOR EACH ROW EXECUTE FUNCTION copy_fault();`);
    try {
      const started = await api.postAs<DatabaseCopy>(SUPERUSER, '/database-copies', request({ mask: false }));
      expect(started.status).toBe(200);
      const copy = await finished(started.body.data!.copy_id);
      expect(copy.status).toBe('failed');
      expect(copy.error).toContain('target refused row 7');
      expect(copy.rows_copied).toBe(0);
      expect(copy.tables.find((t) => t.table === 'transactions')!.status).toBe('failed');
      expect(copy.tables.find((t) => t.table === 'locations')!.status).toBe('rolled_back');
    } finally {
      await staging.exec(`DROP TRIGGER copy_fault ON transactions; DROP FUNCTION copy_fault(); DROP SEQUENCE copy_fault_rows;`);
    }
    const after = await Promise.all([
      contents(staging, 'transactions', 'transaction_id'),
      contents(staging, 'monthly_parkers', 'monthly_parker_id'),
      contents(staging, 'locations', 'location_id'),
    ]);
    expect(after).toEqual(before);
  });

  it.runIf(backend === 'postgres')('leaves the target as it was when its connection is killed mid-copy', async () => {
    const staging = await fixture.staging();
    const before = await contents(staging, 'transactions', 'transaction_id');
    // The target dawdles on its 7th payment, long enough for the test to find its connection and end it.
    await staging.exec(`
      CREATE SEQUENCE copy_slow_rows;
      CREATE FUNCTION copy_slow() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF nextval('copy_slow_rows') = 7 THEN PERFORM pg_sleep(30); END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER copy_slow BEFORE INSERT ON transactions FOR EACH ROW EXECUTE FUNCTION copy_slow();`);
    try {
      const started = await api.postAs<DatabaseCopy>(SUPERUSER, '/database-copies', request({ mask: false }));
      let killed = false;
      for (let attempt = 0; attempt < 200 && !killed; attempt += 1) {
        const { rows } = await fixture.home.query<{ ended: boolean }>(
          `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
            WHERE query LIKE 'COPY "transactions"%FROM STDIN' AND state = 'active'`,
        );
        killed = rows.some((row) => row.ended);
        if (!killed) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(killed).toBe(true);
      const copy = await finished(started.body.data!.copy_id);
      expect(copy.status).toBe('failed');
      expect(copy.error).toMatch(/Nothing was changed on staging/);
    } finally {
      await staging.exec(`DROP TRIGGER copy_slow ON transactions; DROP FUNCTION copy_slow(); DROP SEQUENCE copy_slow_rows;`);
    }
    expect(await contents(staging, 'transactions', 'transaction_id')).toBe(before);
  });

  it('copies back into the running database (its own transaction holds it meanwhile)', async () => {
    const started = await api.postAs<DatabaseCopy>(
      SUPERUSER,
      '/database-copies',
      request({ source: 'staging', target: 'local', confirm_target: 'local', tables: ['monthly_parkers'], mask: false }),
    );
    expect(started.status).toBe(200);
    const copy = await finished(started.body.data!.copy_id);
    expect(copy.status).toBe('done');
    expect(await contents(fixture.home, 'monthly_parkers', 'monthly_parker_id')).toBe(
      await contents(await fixture.staging(), 'monthly_parkers', 'monthly_parker_id'),
    );
  });

  describe('refusals: 4xx, and nothing written', () => {
    let stagingBefore: string;
    let copiesBefore: number;
    beforeAll(async () => {
      stagingBefore = await contents(await fixture.staging(), 'transactions', 'transaction_id');
      copiesBefore = await copies();
    });
    afterAll(async () => {
      expect(await contents(await fixture.staging(), 'transactions', 'transaction_id')).toBe(stagingBefore);
      expect(await copies()).toBe(copiesBefore);
    });

    const endpoints = [
      ['GET', '/database-copy/databases'],
      ['GET', '/database-copy/counts?database=local'],
      ['GET', '/database-copy/sample?database=local&table=monthly_parkers'],
      ['GET', '/database-copies'],
      ['GET', '/database-copies/1'],
      ['POST', '/database-copies'],
    ] as const;

    it.each(endpoints)('%s %s: 403 for a non-superuser holding every other permission', async (method, path) => {
      const result = await callAs(ADMIN, method, path, { json: method === 'POST' ? request() : undefined });
      expect(result.status).toBe(403);
      expect(result.body.message).toMatch(/superuser/);
    });

    it.each(endpoints)('%s %s: 403 from the production admin host, even for a superuser', async (method, path) => {
      const result = await callAs(SUPERUSER, method, path, {
        json: method === 'POST' ? request() : undefined,
        origin: `https://${PRODUCTION_HOST}`,
      });
      expect(result.status).toBe(403);
      expect(result.body.message).toMatch(/production admin console/);
    });

    it.each(endpoints)('%s %s: 401 without a session', async (method, path) => {
      expect((await api.call(method, path, { json: method === 'POST' ? request() : undefined })).status).toBe(401);
    });

    it('says so when a database cannot be read (409), and records nothing', async () => {
      const counts = await api.getAs(SUPERUSER, '/database-copy/counts?database=gone');
      expect(counts.status).toBe(409);
      expect(counts.body.message).toContain('connection refused');
      const result = await api.postAs(SUPERUSER, '/database-copies', request({ target: 'gone', confirm_target: 'gone' }));
      expect(result.status).toBe(409);
      expect(result.body.message).toMatch(/Nothing was copied/);
    });

    it('refuses a target marked production', async () => {
      const result = await api.postAs(SUPERUSER, '/database-copies', request({ target: 'live', confirm_target: 'live' }));
      expect(result.status).toBe(403);
      expect(result.body.message).toMatch(/production database/);
    });

    it.each([
      ['confirm_target', { confirm_target: 'stagin' }],
      ['confirm_target', { confirm_target: undefined }],
      ['target', { target: 'local', confirm_target: 'local' }],
      ['target', { target: 'nowhere', confirm_target: 'nowhere' }],
      ['source', { source: 'nowhere' }],
      ['tables', { tables: [] }],
      ['tables', { tables: ['users'] }],
      ['tables', { tables: 'transactions; DROP TABLE users' }],
      ['mask', { mask: 'yes' }],
      ['extra', { extra: 1 }],
    ])('400 naming %s for %j', async (field, overrides) => {
      const result = await api.postAs(SUPERUSER, '/database-copies', request(overrides));
      expect(result.status).toBe(400);
      expect(result.body.message).toContain(field);
    });

    it('refuses while another copy runs, whichever process started it (the database guards it)', async () => {
      // A copy running elsewhere: only its row in database_copies says so.
      const { rows } = await fixture.home.query<{ copy_id: number }>(
        `INSERT INTO database_copies (source, target, tables, masked, started_by_email)
         VALUES ('local', 'staging', '[]', true, 'other@example.com') RETURNING copy_id`,
      );
      try {
        const result = await api.postAs(SUPERUSER, '/database-copies', request());
        expect(result.status).toBe(409);
        expect(result.body.message).toContain('other@example.com');
        // The API starting again marks it failed (its process is gone); the guard then lets a copy start.
        expect(await failInterruptedCopies(fixture.home)).toBe(1);
        const record = (await api.getAs<DatabaseCopy>(SUPERUSER, `/database-copies/${rows[0]!.copy_id}`)).body.data!;
        expect(record).toMatchObject({ status: 'failed', error: expect.stringMatching(/^Interrupted/) });
      } finally {
        await fixture.home.query('DELETE FROM database_copies WHERE copy_id = $1', [rows[0]!.copy_id]);
      }
    });
  });
});
