import * as z from 'zod/mini';
import { canonicalIdParam } from './ids';
import { directionParam, pageParam, pageSizeParam } from './lists';

/**
 * The tickets list's URL search and the query of GET /refund-tickets. Apart from the rest of the ticket contract: the
 * route checks its search in the entry chunk, which must not carry what only the refund portal needs.
 */
export const TICKET_STATUSES = ['open', 'approved', 'rejected', 'refunded'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_SORT_KEYS = ['created_at', 'amount', 'status', 'ticket_id'] as const;

const optionalDay = z.optional(z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)')));
export const ticketListQuerySchema = z.object({
  status: z.optional(z.enum(TICKET_STATUSES)),
  /** From the URL as text, or from the router's parsed search as a number. */
  locationId: z.optional(z.pipe(z.coerce.string(), canonicalIdParam())),
  /** Days the ticket was opened, in UTC, both ends included. */
  from: optionalDay,
  to: optionalDay,
  sort: z.optional(z.enum(TICKET_SORT_KEYS)),
  dir: directionParam,
  page: pageParam,
  pageSize: pageSizeParam,
});
export type TicketListQuery = z.infer<typeof ticketListQuerySchema>;
