import * as z from 'zod/mini';
import { REALTIME_STREAM_PATH, realtimeSummarySchema, type RealtimeQuery, type RealtimeSummary } from '../contract/dashboards';
import type { ApiClient } from './client';

/** `stopped`: refused (permission taken away, session ended); the screen says so instead of retrying. */
export type StreamStatus = 'connecting' | 'live' | 'reconnecting' | 'stopped';

/** Waits before the n-th reconnection in a row: 1 s, 2 s, 4 s … at most 15 s. */
const retryDelay = (attempt: number) => Math.min(15_000, 1000 * 2 ** Math.min(attempt, 4));

/**
 * Splits a Server-Sent Events body into events (the `event:`, `id:` and `data:` fields of each block; comments and
 * keep-alives skipped). Written here rather than using EventSource, which cannot send the session headers.
 */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; id: string; data: string }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, '\n');
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const fields = { event: 'message', id: '', data: [] as string[] };
        for (const line of block.split('\n')) {
          if (line === '' || line.startsWith(':')) continue;
          const colon = line.indexOf(':');
          const name = colon < 0 ? line : line.slice(0, colon);
          const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (name === 'data') fields.data.push(text);
          else if (name === 'event') fields.event = text;
          else if (name === 'id') fields.id = text;
        }
        if (fields.data.length) yield { event: fields.event, id: fields.id, data: fields.data.join('\n') };
      }
    }
  } finally {
    reader.releaseLock();
  }
}

/**
 * Follows the real-time figures: each `summary` event is the whole summary (never a difference), so after a dropped
 * connection the first event of the next one replaces what is shown and nothing is counted twice. Reconnects by
 * itself (at once when the server ends a stream normally, with growing waits after failures); a session error stops
 * it (the API client has already signed the user out). Returns the function that stops following.
 */
export function followRealtime(
  client: ApiClient,
  query: RealtimeQuery,
  handlers: { onSummary: (summary: RealtimeSummary) => void; onStatus: (status: StreamStatus) => void },
): () => void {
  const controller = new AbortController();
  let failures = 0;
  let lastId = -1;
  void (async () => {
    let everLive = false;
    while (!controller.signal.aborted) {
      // After a stream the server ended normally the next one opens at once: the figures stay "live".
      if (failures > 0) handlers.onStatus('reconnecting');
      else if (!everLive) handlers.onStatus('connecting');
      try {
        const response = await client.stream(REALTIME_STREAM_PATH, query, { signal: controller.signal });
        for await (const message of serverSentEvents(response.body!)) {
          if (message.event !== 'summary') continue;
          const id = Number(message.id);
          // Ids never go back within a stream; a repeated or older one would add nothing new.
          if (Number.isFinite(id) && id < lastId) continue;
          lastId = Number.isFinite(id) ? id : lastId;
          handlers.onSummary(z.parse(realtimeSummarySchema, JSON.parse(message.data)));
          failures = 0;
          everLive = true;
          handlers.onStatus('live');
        }
        // The server ends each stream after a few minutes: open the next one at once.
        lastId = -1;
      } catch (error) {
        if (controller.signal.aborted) return;
        const status = (error as { status?: number }).status;
        if (status === 401 || status === 403) {
          handlers.onStatus('stopped');
          return;
        }
        lastId = -1;
        handlers.onStatus('reconnecting');
        await new Promise((resolve) => setTimeout(resolve, retryDelay(failures++)));
      }
    }
  })();
  return () => controller.abort();
}
