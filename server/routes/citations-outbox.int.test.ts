import { createHash } from 'node:crypto';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { OutboxDatabase } from '../../src/api/citation-outbox/outbox-db';
import { citationsSince, saveCitation, waitingCount } from '../../src/api/citation-outbox/outbox';
import { uploadWaiting, type UploadRun } from '../../src/api/citation-outbox/uploader';
import { createApiClient } from '../../src/api/client';
import type { CitationInputValues } from '../../src/contract/citations';
import { fakeWebLocks } from '../../test/fixtures/fake-web-locks';
import type { Db } from '../db/db';
import { openPostgresDatabase } from '../db/postgres';
import { createRandom, type Random } from '../db/seed/prng';
import { createTestApi, idTokenFor } from '../testing/test-api';
import { sameSchemaOptions } from '../testing/test-database';
import { useSeededApi } from '../testing/seeded-api';

/**
 * Issue 38's fault test: the console's outbox (src/api/citation-outbox) and its API client, driven against the real
 * API on PostgreSQL through a fetch that cuts connections before and after the server answered, answers slowly,
 * sends requests twice, and answers 502 from a "proxy" after the server did the work; two tabs share the outbox
 * (and the upload lock), and a tab is reloaded in the middle of an upload (its requests hang forever, its lock goes).
 * Twenty seeded schedules of 50 citations with photos: afterwards each citation is on the server exactly once, with
 * its photos byte for byte (SHA-256), created once in the audit trail, and nothing waits in the outbox.
 */
const OFFICER = 'officer@example.com';
const SCHEDULES = 20;
const CITATIONS = 50;
const API_BASE = 'http://api.test';
/** The test API's clock is 2026-03-02T15:00:00Z: citations written an hour before. */
const VALUES: Omit<CitationInputValues, 'citation_id'> = {
  location_id: 1,
  license_plate: 'X',
  issued_at: '2026-03-02T14:00:00.000Z',
  violation: 'no_payment',
  fine_cents: 5000,
  notes: 'Blue sedan',
  verdict: { headline: 'NO RECORD', detail: '' },
};

/** Photo-like bytes (a JPEG's signature), different for every citation and photo. */
function photoBytes(random: Random, label: string): ArrayBuffer {
  const body = new TextEncoder().encode(`${label} ${'x'.repeat(random.int(10, 3000))}`);
  const bytes = new Uint8Array(body.length + 4);
  bytes.set([0xff, 0xd8, 0xff, 0xe0]);
  bytes.set(body, 4);
  return bytes.buffer;
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const never = () => new Promise<Response>(() => undefined);

describe('the citation outbox under network faults (PostgreSQL)', () => {
  const context = useSeededApi('postgres');
  let pool: Db;
  let api: ReturnType<typeof createTestApi>;
  let session: string;

  beforeAll(async () => {
    // A pool of its own: the two tabs' requests and the duplicated ones really run side by side.
    pool = openPostgresDatabase({ connectionString: inject('databaseUrl'), options: await sameSchemaOptions(context.database.db), max: 16 });
    api = createTestApi(pool);
    session = (await api.signIn(OFFICER)).token;
  });
  afterAll(async () => {
    expect(api.serverErrors).toEqual([]);
    await pool.close();
  });

  // Five schedules at a time: each waits on the database most of its time, so they overlap well (one at a time: ~5 min
  // on a loaded 2-core machine).
  it.concurrent.for(Array.from({ length: SCHEDULES }, (_, index) => index + 1))('schedule %i', { timeout: 240_000 }, async (seed, { expect }) => {
    const random = createRandom(`citations-outbox-${seed}`);
    const factory = new IDBFactory();
    const open = () => new OutboxDatabase({ indexedDB: factory, IDBKeyRange });
    const locks = fakeWebLocks();
    let clock = 1_000_000;

    const outbox = open();
    const plates: string[] = [];
    for (let n = 0; n < CITATIONS; n++) {
      const plate = `S${seed}N${n}`;
      plates.push(plate);
      const photos = Array.from({ length: random.int(0, 3) }, (_, p) => ({ content_type: 'image/jpeg' as const, bytes: photoBytes(random, `${plate}-${p}`) }));
      await saveCitation(outbox, OFFICER, { ...VALUES, license_plate: plate, fine_cents: random.int(0, 20_000) }, photos, clock + n);
    }

    interface Tab {
      db: OutboxDatabase;
      locks: ReturnType<typeof locks.tab>;
      reloaded: boolean;
    }
    const newTab = (): Tab => ({ db: open(), locks: locks.tab(), reloaded: false });
    /** The network as a tab sees it: each request may be cut, slowed, sent twice or answered by a failing proxy. */
    const networkOf = (tab: Tab) => async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      if (tab.reloaded) return never();
      const path = String(url).slice(API_BASE.length);
      const send = () => api.app.request(path, init);
      const roll = random.next();
      if (roll < 0.1) throw new TypeError('Failed to fetch');
      if (roll < 0.16) await delay(random.int(1, 15));
      if (roll < 0.24) return (await Promise.all([send(), send()]))[random.int(0, 1)]!;
      const answer = await send();
      if (tab.reloaded) return never();
      if (roll < 0.34) throw new TypeError('The network connection was lost.');
      if (roll < 0.4) return new Response('<html>502 Bad Gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } });
      return answer;
    };
    const run = (tab: Tab): Promise<UploadRun> =>
      uploadWaiting({
        db: tab.db,
        officer: OFFICER,
        now: () => clock,
        random: random.next,
        locks: tab.locks,
        api: createApiClient({
          apiBase: API_BASE,
          getIdToken: async () => idTokenFor(OFFICER),
          getSessionToken: () => session,
          onSessionError: (code) => {
            throw new Error(`unexpected session error ${code}`);
          },
          fetch: networkOf(tab),
        }),
      });

    let tabs: [Tab, Tab] = [newTab(), newTab()];
    let rounds = 0;
    while ((await waitingCount(outbox, OFFICER)) > 0) {
      expect(++rounds, 'rounds before the outbox emptied').toBeLessThan(2000);
      const runs = [run(tabs[0]), ...(random.chance(0.5) ? [run(tabs[1])] : [])];
      if (random.chance(0.15)) {
        // A reload in the middle of an upload: the page's requests never come back and its lock is gone.
        await delay(random.int(0, 10));
        const [reloaded] = tabs;
        reloaded.reloaded = true;
        reloaded.locks.reload();
        tabs = [newTab(), tabs[1]];
        await Promise.all(runs.slice(1));
      } else {
        await Promise.all(runs);
      }
      // Time passes: the next backoff ends.
      const next = (await outbox.citations.toArray()).filter((c) => c.state === 'saved' || c.state === 'uploading').map((c) => c.nextAttemptAt);
      clock = Math.max(clock + 1, ...next);
    }

    const local = await citationsSince(outbox, OFFICER, 0);
    expect(local.map((citation) => citation.state)).toEqual(Array(CITATIONS).fill('uploaded'));
    const { rows } = await pool.query<{ citation_id: string; license_plate: string; creates: number; photos: { sha256: string; actual: string }[] | null }>(
      `SELECT c.citation_id::text, c.license_plate,
              (SELECT count(*)::int FROM audit_log a WHERE a.entity = 'citation' AND a.entity_id = c.citation_id::text AND a.action = 'create') AS creates,
              (SELECT json_agg(json_build_object('sha256', p.sha256, 'actual', encode(sha256(b.bytes), 'hex')) ORDER BY p.position)
                 FROM citation_photos p JOIN citation_photo_blobs b ON b.sha256 = p.sha256 WHERE p.citation_id = c.citation_id) AS photos
         FROM citations c WHERE c.license_plate LIKE $1 ORDER BY c.license_plate`,
      [`S${seed}N%`],
    );
    expect(rows.map((row) => row.license_plate).sort()).toEqual([...plates].sort());
    const byId = new Map(rows.map((row) => [row.citation_id, row]));
    for (const citation of local) {
      const stored = byId.get(citation.citation_id);
      expect(stored?.creates).toBe(1);
      // Byte for byte: the server's own SHA-256 of what it stored is the device's.
      const localHashes = await Promise.all(
        citation.photos.map(async (sha256) => createHash('sha256').update(new Uint8Array((await outbox.photos.get([citation.citation_id, sha256]))!.bytes)).digest('hex')),
      );
      expect((stored?.photos ?? []).map((photo) => photo.actual)).toEqual(localHashes);
      expect((stored?.photos ?? []).map((photo) => photo.sha256)).toEqual(citation.photos);
    }
  });
});
