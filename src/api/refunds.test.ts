import { describe, expect, it, vi } from 'vitest';
import { createApiClient } from './client';
import { refundPayment } from './refunds';
import type { RefundResult } from '../contract/refunds';

const RESULT: RefundResult = {
  refund_id: 7,
  transaction_id: 42,
  amount_cents: 500,
  reason: 'Charged twice',
  ticket_id: null,
  created_at: '2026-03-02T15:00:00.000Z',
  payment_amount_cents: 1250,
  refunded_cents: 500,
  remaining_cents: 750,
  status: 'partially_refunded',
};

/** A client over a fetch that answers each call with the next of `answers` ('hang' never answers, 'down' fails). */
function clientWith(answers: (Response | 'hang' | 'down')[]) {
  const fetch = vi.fn<typeof globalThis.fetch>(async (_url, init) => {
    const answer = answers.shift();
    if (answer === 'down') throw new TypeError('Failed to fetch');
    if (answer === 'hang' || answer === undefined) {
      return new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)),
      );
    }
    return answer;
  });
  const client = createApiClient({ apiBase: '/api', getIdToken: async () => 'id', getSessionToken: () => null, onSessionError: () => {}, fetch });
  const keys = () => fetch.mock.calls.map(([, init]) => (init?.headers as Record<string, string>)['Idempotency-Key']);
  return { client, fetch, keys };
}
const ok = () => new Response(JSON.stringify({ success: true, data: RESULT }), { status: 200 });

describe('refundPayment', () => {
  it('sends the key and the body once when the server answers', async () => {
    const { client, fetch, keys } = clientWith([ok()]);
    await expect(refundPayment(client, 42, { amount_cents: 500, reason: 'Charged twice' }, 'key-1')).resolves.toEqual(RESULT);
    expect(keys()).toEqual(['key-1']);
    expect(String(fetch.mock.calls[0]![0])).toBe('/api/transactions/42/refunds');
    expect(JSON.parse(String(fetch.mock.calls[0]![1]!.body))).toEqual({ amount_cents: 500, reason: 'Charged twice' });
  });

  it('retries a timed-out or unreachable request with the same key', async () => {
    const { client, keys } = clientWith(['hang', 'down', ok()]);
    await expect(refundPayment(client, 42, { amount_cents: 500, reason: 'x' }, 'key-2', 20)).resolves.toEqual(RESULT);
    expect(keys()).toEqual(['key-2', 'key-2', 'key-2']);
  });

  it('gives up after three unanswered attempts', async () => {
    const { client, keys } = clientWith(['down', 'down', 'down', ok()]);
    await expect(refundPayment(client, 42, { amount_cents: 500, reason: 'x' }, 'key-3', 20)).rejects.toThrow(/Network error/);
    expect(keys()).toHaveLength(3);
  });

  it('does not retry a refusal', async () => {
    const refusal = new Response(JSON.stringify({ success: false, message: 'more than what is left' }), { status: 400 });
    const { client, keys } = clientWith([refusal, ok()]);
    await expect(refundPayment(client, 42, { amount_cents: 5000, reason: 'x' }, 'key-4', 20)).rejects.toMatchObject({ status: 400 });
    expect(keys()).toEqual(['key-4']);
  });
});
