/**
 * The list bench's CSV export (bench/lists.bench.ts): every payment as the superuser, over HTTP from the API in a
 * separate Node process whose resident memory (VmRSS) is sampled every 50 ms while it streams; and its baseline,
 * `COPY (the export's columns, in its order) TO STDOUT` read by a plain client into a sink that only counts lines.
 */
import { get as httpGet } from 'node:http';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { PERSONAS } from '../lib/operator-data';
import { startApiProcess, type ApiRuntime } from '../lib/api-process';
import type { Engine } from './engines';

const RSS_SAMPLE_MS = 50;

export interface CsvResult {
  rows: number;
  bytes: number;
  seconds: number;
  firstByteMs: number;
  rowsPerSec: number;
  idleRssMB: number;
  peakRssMB: number;
  /** VmHWM at the end: the highest RSS since the process started, startup included. */
  hwmMB: number;
  rssSamples: number;
}

/** Counts the newlines of a byte stream (a CSV's rows, header included) and keeps nothing. */
class LineCounter extends Writable {
  lines = 0;
  bytes = 0;
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void) {
    this.bytes += chunk.length;
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.lines++;
    done();
  }
}

/**
 * The export's eleven columns (server/routes/transactions.ts), its join and its default order (newest first), as one
 * COPY: the database's own fastest way to hand the same rows to a client.
 */
const COPY_SQL = `COPY (SELECT t.transaction_id, l.name, t.license_plate, t.payment_time, t.expiry_date_time, t.payment_amount,
         t.fee, t.refunded_amount, t.payment_method, t.status, t.phone_last4
    FROM transactions t JOIN locations l ON l.location_id = t.location_id
   ORDER BY t.payment_time DESC, t.transaction_id DESC) TO STDOUT (FORMAT csv, HEADER)`;

/** The baseline: rows/s of COPY TO STDOUT into a null sink, from a fresh connection. */
export async function copyRowsPerSec(databaseUrl: string): Promise<{ rows: number; rowsPerSec: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const sink = new LineCounter();
    const started = performance.now();
    await pipeline(client.query(copyTo(COPY_SQL)), sink);
    const seconds = (performance.now() - started) / 1000;
    const rows = sink.lines - 1; // the header
    return { rows, rowsPerSec: rows / seconds };
  } finally {
    await client.end();
  }
}

export async function measureCsv(engine: Engine, runtime: ApiRuntime, now: Date): Promise<CsvResult> {
  const api = await startApiProcess({ ...engine.target, now: now.toISOString() }, runtime);
  try {
    const headers = await api.headersFor(PERSONAS.all);
    // A small request first, so the idle figure is that of a server that has answered (code loaded, pool open).
    await (await fetch(`${api.url}/transactions?pageSize=10`, { headers })).text();
    const idleRssMB = api.memory().rssMB;
    let peakRssMB = idleRssMB;
    let rssSamples = 0;
    const sampler = setInterval(() => {
      peakRssMB = Math.max(peakRssMB, api.memory().rssMB);
      rssSamples++;
    }, RSS_SAMPLE_MS);
    // node:http rather than fetch: the client should cost the 2 shared cores as little as a browser's download would.
    const exportStarted = performance.now();
    let bytes = 0;
    let lines = 0;
    let firstByteMs = 0;
    await new Promise<void>((resolve, reject) => {
      const request = httpGet(`${api.url}/transactions/export`, { headers }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`${engine.label} export: ${response.statusCode}`));
        response.on('data', (chunk: Buffer) => {
          if (bytes === 0) firstByteMs = performance.now() - exportStarted;
          bytes += chunk.length;
          for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines++;
        });
        response.on('end', resolve);
        response.on('error', reject);
      });
      request.on('error', reject);
    });
    const seconds = (performance.now() - exportStarted) / 1000;
    clearInterval(sampler);
    const { rssMB, hwmMB } = api.memory();
    peakRssMB = Math.max(peakRssMB, rssMB);
    const rows = lines - 1; // the header
    return { rows, bytes, seconds, firstByteMs, rowsPerSec: rows / seconds, idleRssMB, peakRssMB, hwmMB, rssSamples };
  } finally {
    await api.stop();
  }
}

