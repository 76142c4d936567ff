/**
 * The reference API's sync pages served from memory (no database, no authentication): the source of the per-row
 * ceiling's rows, so that fetching them costs the ceiling little and no database time. It answers
 * POST /enforcement/transactions as the API does (records with updated_at ≥ floor(updated_at/1000), ordered by
 * (updated_at, key), after `offset`, at most `limit`, in the success envelope), with the API's CORS for the page.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SYNC_PAGE_SIZE, SYNC_TYPES, type SyncType } from '../../src/contract/enforcement';
import type { ServedRecord } from './expected';

export async function startReplayServer(records: Record<SyncType, ServedRecord[]>, origin: string) {
  const server = createServer((request, response) => {
    const cors = { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' };
    if (request.method === 'OPTIONS') {
      response.writeHead(204, {
        ...cors,
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers': request.headers['access-control-request-headers'] ?? '*',
        'access-control-max-age': '600',
      });
      response.end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: SyncType; limit: number; updated_at?: number; offset?: number };
      const list = records[body.type];
      const from = Math.floor((body.updated_at ?? 0) / 1000);
      let low = 0;
      let high = list.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (list[middle]!.updatedAt < from) low = middle + 1;
        else high = middle;
      }
      const start = low + (body.offset ?? 0);
      const page = list.slice(start, start + body.limit);
      const text = `{"success":true,"data":[${page.map((record) => record.json).join(',')}]}`;
      response.writeHead(200, { ...cors, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      response.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The copy must answer as the API does: the first page of each type, compared record by record. */
export async function replayMatchesApi(apiUrl: string, replayUrl: string, headers: Record<string, string>, locationIds: number[]): Promise<boolean> {
  for (const type of SYNC_TYPES) {
    const body = JSON.stringify({ type, locationId: locationIds, limit: SYNC_PAGE_SIZE, offset: 0 });
    const [fromApi, fromReplay] = await Promise.all(
      [apiUrl, replayUrl].map(async (base) => {
        const response = await fetch(`${base}/enforcement/transactions?type=${type}`, { method: 'POST', headers, body });
        return JSON.stringify(((await response.json()) as { data: unknown }).data);
      }),
    );
    if (fromApi !== fromReplay) return false;
  }
  return true;
}
