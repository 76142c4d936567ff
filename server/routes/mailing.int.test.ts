import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Paged } from '../../src/contract/lists';
import type { Mailing, MailingOptions, MailingPreview } from '../../src/contract/mailing';
import type { Db } from '../db/db';
import { MailingRunner, type MailerSettings } from '../mailing/runner';
import { addNamedLocations } from '../testing/named-locations';
import { useSeededApi } from '../testing/seeded-api';
import { startSmtpSink, type SmtpSink } from '../testing/smtp-sink';
import { createTestApi } from '../testing/test-api';
import { BACKENDS } from '../testing/test-database';

const SU = 'superuser@example.com';
const NOT_SUPERUSERS = ['admin@example.com', 'officer@example.com', 'finance@example.com', 'promo@example.com', 'noaccess@example.com'];
/** Parkers of these tests: status "Mailtest" keeps them apart from anything the demo seed has. */
const STATUS = 'Mailtest';
const PARKERS = 40;

/** 40 parkers at locations 1 and 2, the first with two vehicles and a second location; every 10th opted out. */
async function seedParkers(db: Db): Promise<void> {
  await db.query(
    `INSERT INTO monthly_parkers (parkerid, location_id, license_plate, fname, lname, parker_status, vehicle_status, email)
     SELECT 900000 + n, 1 + (n % 2), 'MT' || n, 'First' || n, 'Last' || n, $1, 'Active', 'Parker' || n || '@Example.test'
       FROM generate_series(1, ${PARKERS}) AS n`,
    [STATUS],
  );
  // Parker 1 again: a second vehicle, and the same address at location 2 in capitals: still one recipient.
  await db.query(
    `INSERT INTO monthly_parkers (parkerid, location_id, license_plate, fname, lname, parker_status, vehicle_status, email)
     VALUES (900001, 2, 'MT1B', 'First1', 'Last1', $1, 'Active', 'PARKER1@EXAMPLE.TEST'),
            (900001, 2, 'MT1C', 'First1', 'Last1', $1, 'Active', 'parker1@example.test')`,
    [STATUS],
  );
  await db.query(
    `INSERT INTO mailing_opt_outs (email) SELECT 'parker' || n || '@example.test' FROM generate_series(10, ${PARKERS}, 10) AS n`,
  );
}

const segment = { kind: 'parkers', locationIds: [1, 2], parkerStatus: STATUS } as const;
const content = { subject: 'Hello {{first_name}}', body: 'Dear **{{first_name}} {{last_name}}**,\n\nnews.' };

describe.each(BACKENDS)('mailing on %s', (backend) => {
  const context = useSeededApi(backend);
  let sink: SmtpSink;
  let runner: MailingRunner;
  let api: ReturnType<typeof createTestApi>;
  const logs: string[] = [];
  const db = () => context.database.db;

  beforeAll(async () => {
    sink = await startSmtpSink();
    await seedParkers(db());
    const settings: MailerSettings = {
      smtp: sink.settings,
      from: 'Lightning Pay <no-reply@lightningpay.test>',
      ratePerSecond: 0,
      connections: 2,
    };
    runner = new MailingRunner({ db: db(), settings, log: (line) => logs.push(line), pollMs: 60_000 });
    api = createTestApi(db(), { mailer: { settings, runner } });
  });
  afterAll(async () => {
    expect(api.serverErrors).toEqual([]);
    await runner?.stop();
    await sink?.close();
  });

  it('offers the locations, parker statuses and roles a segment may name', async () => {
    const result = await api.getAs<MailingOptions>(SU, '/mailings/options');
    expect(result.status).toBe(200);
    expect(result.body.data?.parkerStatuses).toContain(STATUS);
    expect(result.body.data?.locations.map((l) => l.location_id).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(result.body.data?.roles.length).toBeGreaterThan(0);
  });

  // Issue 33: Enforcement Lite's locations are another offering, and names sort as people read them.
  it('offers only full-offering locations, "Union …" before "UX …", and refuses a lite one in a segment', async () => {
    const added = await addNamedLocations(db(), [
      { name: 'UX Mailtest Lot', offering: 'full' },
      { name: 'Union Mailtest Garage', offering: 'full' },
      { name: 'Alpha Mailtest Lite', offering: 'lite' },
    ]);
    try {
      const names = (await api.getAs<MailingOptions>(SU, '/mailings/options')).body.data!.locations.map((l) => l.name);
      expect(names.filter((name) => name.includes('Mailtest'))).toEqual(['Union Mailtest Garage', 'UX Mailtest Lot']);
      const lite = { ...segment, locationIds: [added.ids.get('Alpha Mailtest Lite')!] };
      const refused = await api.postAs(SU, '/mailings/preview', { ...content, segment: lite });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toContain('segment.locationIds');
    } finally {
      await added.remove();
    }
  });

  it('previews the count (one per address, opted-out left out) and rendered, personalised samples', async () => {
    const result = await api.postAs<MailingPreview>(SU, '/mailings/preview', { ...content, segment });
    expect(result.status).toBe(200);
    expect(result.body.data).toMatchObject({ recipientCount: PARKERS - 4, optedOutCount: 4 });
    const sample = result.body.data!.samples[0]!;
    const [first] = sample.name.split(' ');
    expect(sample.name).toMatch(/^First\d+ Last\d+$/);
    expect(sample.subject).toBe(`Hello ${first}`);
    expect(sample.html).toContain(`<strong>${sample.name}</strong>`);
    expect(sample.text).toContain(`Dear **${sample.name}**`);
    expect(result.body.data!.samples).toHaveLength(3);
  });

  it('previews staff by role', async () => {
    const roles = (await api.getAs<MailingOptions>(SU, '/mailings/options')).body.data!.roles;
    const result = await api.postAs<MailingPreview>(SU, '/mailings/preview', {
      ...content,
      segment: { kind: 'staff', roleIds: roles.map((role) => role.role_id) },
    });
    expect(result.status).toBe(200);
    expect(result.body.data!.recipientCount).toBeGreaterThanOrEqual(5);
    const names = result.body.data!.samples.map((s) => s.name.split(' ')[0]);
    expect(result.body.data!.samples.map((s) => s.subject)).toEqual(names.map((name) => `Hello ${name}`));
  });

  it.each([
    [{ ...content, segment: { ...segment, locationIds: [] } }, 'segment.locationIds'],
    [{ ...content, segment: { ...segment, locationIds: [999] } }, 'segment.locationIds'],
    [{ ...content, subject: '  ', segment }, 'subject'],
    [{ ...content, body: '', segment }, 'body'],
    [{ ...content, subject: 'x'.repeat(201), segment }, 'subject'],
    [{ ...content, segment: { kind: 'staff', roleIds: [] } }, 'segment.roleIds'],
    [{ ...content, segment, extra: 1 }, ''],
  ])('refuses bad input with a 400 naming the field, and queues nothing (%#)', async (body, field) => {
    const before = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM mailings');
    const result = await api.postAs(SU, '/mailings', body);
    expect(result.status).toBe(400);
    expect(result.body.message).toContain(field);
    const after = await db().query<{ n: number }>('SELECT count(*)::int AS n FROM mailings');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('refuses a segment nobody in it can be mailed, writing nothing', async () => {
    const result = await api.postAs(SU, '/mailings', { ...content, segment: { ...segment, parkerStatus: 'Nobody' } });
    expect(result.status).toBe(400);
    expect(result.body.message).toContain('segment');
    const audits = await db().query<{ n: number }>("SELECT count(*)::int AS n FROM audit_log WHERE entity = 'mailing'");
    expect(audits.rows[0]!.n).toBe(0);
  });

  it('sends a test to the signed-in superuser only', async () => {
    sink.clear();
    const result = await api.postAs<{ sentTo: string }>(SU, '/mailings/test', content);
    expect(result.body.message).toBeUndefined();
    expect(result.status).toBe(200);
    expect(result.body.data).toEqual({ sentTo: SU });
    expect(sink.messages.map((m) => m.to)).toEqual([SU]);
    expect(sink.messages[0]!.raw).toContain('Subject: [Test] Hello Sam');
  });

  it('sends a mailing once to each address, skips opt-outs, audits it, shows progress and history', async () => {
    sink.clear();
    logs.length = 0;
    const queued = await api.postAs<Mailing>(SU, '/mailings', { ...content, segment });
    expect(queued.status).toBe(200);
    const mailing = queued.body.data!;
    expect(mailing).toMatchObject({ recipient_count: PARKERS - 4, created_by_email: SU });
    await runner.idle();
    const detail = await api.getAs<Mailing>(SU, `/mailings/${mailing.mailing_id}`);
    expect(detail.body.data).toMatchObject({ state: 'done', sent: PARKERS - 4, failed: 0, left: 0 });
    const addresses = sink.messages.map((m) => m.to).sort();
    expect(new Set(addresses).size).toBe(PARKERS - 4);
    expect(addresses).toHaveLength(PARKERS - 4);
    expect(addresses.filter((a) => /^parker(10|20|30|40)@/.test(a))).toEqual([]);
    const first = sink.messages.find((m) => m.to === 'parker1@example.test')!;
    expect(first.raw).toContain('Subject: Hello First1');
    expect(first.raw).toMatch(new RegExp(`Message-ID: <mailing-${mailing.mailing_id}\\.\\d+@lightningpay\\.test>`, 'i'));
    const history = await api.getAs<Paged<Mailing>>(SU, '/mailings');
    expect(history.body.data!.rows[0]).toMatchObject({ mailing_id: mailing.mailing_id, sent: PARKERS - 4 });
    const audit = await db().query<{ actor_email: string; action: string }>(
      "SELECT actor_email, action FROM audit_log WHERE entity = 'mailing' AND entity_id = $1",
      [String(mailing.mailing_id)],
    );
    expect(audit.rows).toEqual([{ actor_email: SU, action: 'send' }]);
    // The job's log says what happened without a single address.
    expect(logs.join('\n')).toContain(`mailing ${mailing.mailing_id}: done: ${PARKERS - 4} sent`);
    expect(logs.join('\n')).not.toMatch(/@/);
  });

  it('skips a recipient who opts out after the mailing was queued, and marks refused ones failed', async () => {
    sink.clear();
    const queued = (await api.postAs<Mailing>(SU, '/mailings', { ...content, segment })).body.data!;
    await runner.idle();
    sink.clear();
    await db().query("INSERT INTO mailing_opt_outs (email) VALUES ('parker3@example.test')");
    sink.refuse('parker5@example.test');
    const second = (await api.postAs<Mailing>(SU, '/mailings', { ...content, segment: { ...segment, locationIds: [1, 2] } })).body
      .data!;
    expect(second.recipient_count).toBe(PARKERS - 5);
    // Queue a third after the fact, then opt someone out before it runs.
    await runner.idle();
    const detail = (await api.getAs<Mailing>(SU, `/mailings/${second.mailing_id}`)).body.data!;
    expect(detail).toMatchObject({ sent: PARKERS - 6, failed: 1, left: 0, state: 'done' });
    expect(queued.mailing_id).toBeLessThan(second.mailing_id);
    const failed = await db().query<{ error: string }>(
      "SELECT error FROM mailing_recipients WHERE mailing_id = $1 AND state = 'failed'",
      [second.mailing_id],
    );
    expect(failed.rows[0]!.error).toMatch(/^550/);
    expect(failed.rows[0]!.error).not.toContain('@');
  });

  it.each(NOT_SUPERUSERS)('refuses %s every mailing endpoint (403), before reading the body', async (email) => {
    expect((await api.getAs(email, '/mailings')).status).toBe(403);
    expect((await api.getAs(email, '/mailings/options')).status).toBe(403);
    expect((await api.getAs(email, '/mailings/1')).status).toBe(403);
    expect((await api.postAs(email, '/mailings', { ...content, segment })).status).toBe(403);
    expect((await api.postAs(email, '/mailings', { nonsense: true })).status).toBe(403);
    expect((await api.postAs(email, '/mailings/preview', { ...content, segment })).status).toBe(403);
    expect((await api.postAs(email, '/mailings/test', content)).status).toBe(403);
  });

  it('refuses calls without a session', async () => {
    expect((await api.call('GET', '/mailings')).status).toBe(401);
    expect((await api.call('POST', '/mailings', { json: { ...content, segment } })).status).toBe(401);
  });

  it('answers 404 for a mailing that does not exist and 400 for a malformed id', async () => {
    expect((await api.getAs(SU, '/mailings/999999')).status).toBe(404);
    expect((await api.getAs(SU, '/mailings/01')).status).toBe(400);
  });
});
