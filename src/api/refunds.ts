import { ApiError, type ApiClient, type RequestOptions } from './client';
import { historySchema, type AuditEntry, type Paged } from '../contract/lists';
import {
  REFUND_TICKETS_EXPORT_PATH,
  REFUND_TICKETS_PATH,
  ticketDetailSchema,
  ticketPageSchema,
  type TicketCreate,
  type TicketDecision,
  type TicketDetail,
  type TicketListQuery,
  type TicketRow,
} from '../contract/refund-tickets';
import { IDEMPOTENCY_KEY_HEADER, refundResultSchema, refundsPath, type RefundInput, type RefundResult } from '../contract/refunds';

const ticketPath = (ticketId: number) => `${REFUND_TICKETS_PATH}/${ticketId}`;
/** Shown in place by the ticket screen and its forms. */
const QUIET = { quietStatuses: [400, 404, 409] } as const;

export function listTickets(client: ApiClient, search: TicketListQuery, options?: RequestOptions): Promise<Paged<TicketRow>> {
  return client.get(REFUND_TICKETS_PATH, search, ticketPageSchema, options);
}

export function getTicket(client: ApiClient, ticketId: number, options?: RequestOptions): Promise<TicketDetail> {
  return client.get(ticketPath(ticketId), undefined, ticketDetailSchema, { quietStatuses: [404], ...options });
}

export function getTicketHistory(client: ApiClient, ticketId: number, options?: RequestOptions): Promise<AuditEntry[]> {
  return client.get(`${ticketPath(ticketId)}/history`, undefined, historySchema, { quietStatuses: [404], ...options });
}

export function openTicket(client: ApiClient, input: TicketCreate): Promise<TicketDetail> {
  return client.post(REFUND_TICKETS_PATH, input, ticketDetailSchema, QUIET);
}

export function addTicketNote(client: ApiClient, ticketId: number, body: string): Promise<TicketDetail> {
  return client.post(`${ticketPath(ticketId)}/notes`, { body }, ticketDetailSchema, QUIET);
}

export function decideTicket(client: ApiClient, ticketId: number, decision: TicketDecision): Promise<TicketDetail> {
  return client.post(`${ticketPath(ticketId)}/decision`, decision, ticketDetailSchema, QUIET);
}

/** A request that has not answered by then is given up and sent again with the same key. */
export const REFUND_ATTEMPT_TIMEOUT_MS = 15_000;
const REFUND_ATTEMPTS = 3;

/**
 * Refunds once per `idempotencyKey` (one key per confirmed action): a request that times out or cannot reach the
 * server is sent again with the same key, so a refund the server made but could not answer is answered on the retry
 * and never made twice. A refusal (4xx) is final and is not retried.
 */
export async function refundPayment(
  client: ApiClient,
  transactionId: number,
  input: RefundInput,
  idempotencyKey: string,
  attemptTimeoutMs = REFUND_ATTEMPT_TIMEOUT_MS,
): Promise<RefundResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.post(refundsPath(transactionId), input, refundResultSchema, {
        ...QUIET,
        headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
        signal: AbortSignal.timeout(attemptTimeoutMs),
      });
    } catch (error) {
      const unanswered = (error instanceof DOMException && error.name === 'TimeoutError') || (error instanceof ApiError && error.status === undefined);
      if (!unanswered || attempt >= REFUND_ATTEMPTS) throw error;
    }
  }
}

/** Saves every ticket the list shows as CSV. */
export async function exportTicketsCsv(client: ApiClient, search: TicketListQuery, onProgress?: (receivedBytes: number) => void) {
  const { page: _page, pageSize: _pageSize, ...filters } = search;
  const file = await client.download(REFUND_TICKETS_EXPORT_PATH, filters, {
    fallbackFileName: `refund-tickets-${new Date().toISOString().slice(0, 10)}.csv`,
    onProgress,
  });
  const { saveFile } = await import('./save-file');
  saveFile(file);
}
