import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { ApiError, type ApiClient } from '../client';
import type { CitationInputValues } from '../../contract/citations';
import { fakeWebLocks } from '../../../test/fixtures/fake-web-locks';
import { OutboxDatabase } from './outbox-db';
import { citationsSince, forgetUploaded, saveCitation, sha256Hex, waitingCount } from './outbox';
import { backoffMs, uploadWaiting, type UploadDeps } from './uploader';

const OFFICER = 'officer@example.com';
const VALUES: Omit<CitationInputValues, 'citation_id'> = {
  location_id: 1,
  license_plate: 'abc 123',
  issued_at: '2026-11-29T15:00:00.000Z',
  violation: 'no_payment',
  fine_cents: 5000,
  notes: '',
  verdict: { headline: 'NO RECORD', detail: '' },
};
const photo = (text: string) => ({ content_type: 'image/jpeg' as const, bytes: new TextEncoder().encode(`\xff\xd8\xff ${text}`).buffer as ArrayBuffer });
const openOutbox = (factory = new IDBFactory()) => new OutboxDatabase({ indexedDB: factory, IDBKeyRange });

/** An API that records what is posted and answers by a script: ok, or the error given for that call. */
function scriptedApi(fail: (path: string, n: number) => Error | null = () => null) {
  const posts: { path: string; body: unknown }[] = [];
  const api = {
    post: async (path: string, body: unknown) => {
      const error = fail(path, posts.length);
      posts.push({ path, body });
      if (error) throw error;
      return body;
    },
  } as unknown as ApiClient;
  return { api, posts };
}

const NETWORK = () => new ApiError('Network error: could not reach the server');

describe('the citation outbox', () => {
  it('saves a citation and its photos at once, under an id made here, the same photo once', async () => {
    const db = openOutbox();
    const saved = await saveCitation(db, 'Officer@Example.com', VALUES, [photo('a'), photo('a'), photo('b')], 1000);
    expect(saved.citation_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(saved).toMatchObject({ officer: OFFICER, state: 'saved', input: { license_plate: 'ABC123' } });
    expect(saved.photos).toEqual([await sha256Hex(photo('a').bytes), await sha256Hex(photo('b').bytes)]);
    expect(await db.photos.count()).toBe(2);
    expect(await waitingCount(db, OFFICER)).toBe(1);
    expect(await waitingCount(db, 'someone.else@example.com')).toBe(0);
  });

  it('refuses what the server would refuse before keeping anything', async () => {
    const db = openOutbox();
    await expect(saveCitation(db, OFFICER, { ...VALUES, license_plate: '' }, [])).rejects.toThrow();
    await expect(saveCitation(db, OFFICER, VALUES, [photo('1'), photo('2'), photo('3'), photo('4')])).rejects.toThrow('At most 3');
    expect(await db.citations.count()).toBe(0);
  });

  it('uploads in the order saved, each with its photos, and marks them uploaded', async () => {
    const db = openOutbox();
    const first = await saveCitation(db, OFFICER, VALUES, [photo('1')], 1);
    const second = await saveCitation(db, OFFICER, { ...VALUES, license_plate: 'XYZ9' }, [], 2);
    const { api, posts } = scriptedApi();
    expect(await uploadWaiting({ db, api, officer: OFFICER })).toBe('done');
    expect(posts.map((post) => post.path)).toEqual(['/citations', `/citations/${first.citation_id}/photos/${first.photos[0]}`, '/citations']);
    expect((posts[0]!.body as { citation_id: string }).citation_id).toBe(first.citation_id);
    expect((posts[2]!.body as { citation_id: string }).citation_id).toBe(second.citation_id);
    expect((await citationsSince(db, OFFICER, 0)).map((citation) => citation.state)).toEqual(['uploaded', 'uploaded']);
    expect((await db.photos.toArray()).every((kept) => kept.uploaded)).toBe(true);
  });

  it('waits after a failure, keeping the order, and sends again with the same id until it lands', async () => {
    const db = openOutbox();
    const first = await saveCitation(db, OFFICER, VALUES, [], 1);
    await saveCitation(db, OFFICER, { ...VALUES, license_plate: 'XYZ9' }, [], 2);
    let clock = 10_000;
    const { api, posts } = scriptedApi((_path, n) => (n < 2 ? NETWORK() : null));
    const deps: UploadDeps = { db, api, officer: OFFICER, now: () => clock, random: () => 1 };
    expect(await uploadWaiting(deps)).toBe('waiting');
    expect((await db.citations.get(first.citation_id))).toMatchObject({ state: 'saved', attempts: 1, nextAttemptAt: 11_000 });
    // Not before its time, and the second never overtakes the first.
    expect(await uploadWaiting(deps)).toBe('waiting');
    expect(posts).toHaveLength(1);
    clock = 11_000;
    expect(await uploadWaiting(deps)).toBe('waiting');
    expect((await db.citations.get(first.citation_id))?.nextAttemptAt).toBe(13_000);
    clock = 13_000;
    expect(await uploadWaiting(deps)).toBe('done');
    expect(posts.map((post) => (post.body as { citation_id: string }).citation_id).slice(0, 3)).toEqual(Array(3).fill(first.citation_id));
    expect(await waitingCount(db, OFFICER)).toBe(0);
  });

  it('marks a refused citation with the server’s reason and goes on with the next', async () => {
    const db = openOutbox();
    const refused = await saveCitation(db, OFFICER, { ...VALUES, location_id: 3 }, [], 1);
    await saveCitation(db, OFFICER, VALUES, [], 2);
    const { api } = scriptedApi((_path, n) =>
      n === 0 ? new ApiError('You do not have permission to write citations at location 3.', { status: 403 }) : null,
    );
    expect(await uploadWaiting({ db, api, officer: OFFICER })).toBe('done');
    expect(await db.citations.get(refused.citation_id)).toMatchObject({ state: 'refused', problem: 'You do not have permission to write citations at location 3.' });
    expect((await citationsSince(db, OFFICER, 0)).map((citation) => citation.state)).toEqual(['refused', 'uploaded']);
  });

  it('leaves the work to the tab that holds the upload lock', async () => {
    const factory = new IDBFactory();
    await saveCitation(openOutbox(factory), OFFICER, VALUES, [], 1);
    const locks = fakeWebLocks();
    const [tabA, tabB] = [locks.tab(), locks.tab()];
    let release: () => void = () => undefined;
    const { api, posts } = scriptedApi();
    const slow = { post: async (path: string, body: unknown) => (await new Promise<void>((resolve) => (release = resolve)), api.post(path, body, undefined as never)) } as unknown as ApiClient;
    const running = uploadWaiting({ db: openOutbox(factory), api: slow, officer: OFFICER, locks: tabA });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await uploadWaiting({ db: openOutbox(factory), api, officer: OFFICER, locks: tabB })).toBe('busy');
    release();
    expect(await running).toBe('done');
    expect(posts).toHaveLength(1);
  });

  it('forgets uploaded citations of earlier days, never waiting ones', async () => {
    const db = openOutbox();
    const old = await saveCitation(db, OFFICER, VALUES, [photo('x')], 1);
    const waiting = await saveCitation(db, OFFICER, VALUES, [], 2);
    await db.citations.update(old.citation_id, { state: 'uploaded' });
    await forgetUploaded(db, 100);
    expect((await db.citations.toArray()).map((citation) => citation.citation_id)).toEqual([waiting.citation_id]);
    expect(await db.photos.count()).toBe(0);
  });

  it('waits longer after each failure, up to five minutes', () => {
    expect([1, 2, 3, 10, 30].map((attempts) => backoffMs(attempts, () => 1))).toEqual([1000, 2000, 4000, 300_000, 300_000]);
    expect(backoffMs(1, () => 0)).toBe(500);
  });
});
