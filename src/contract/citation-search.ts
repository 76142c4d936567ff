import * as z from 'zod/mini';
import { canonicalIdParam } from './ids';
import { directionParam, pageParam, pageSizeParam, textFilter } from './lists';

/**
 * The Citations list's URL search and the query of GET /citations (issue 38). Apart from the rest of the citation
 * contract, as the other sections' searches are: the route checks it in the entry chunk.
 */
export const CITATION_STATUSES = ['issued', 'voided'] as const;
export type CitationStatus = (typeof CITATION_STATUSES)[number];
export const CITATION_SORT_KEYS = ['issued_at', 'license_plate', 'fine_cents', 'received_at'] as const;

export const citationListQuerySchema = z.object({
  /** A part of the plate, any case, spaces and dashes ignored. */
  q: textFilter(16),
  status: z.optional(z.enum(CITATION_STATUSES)),
  locationId: z.optional(z.pipe(z.coerce.string(), canonicalIdParam())),
  /** The officer's e-mail, or a part of it. */
  officer: textFilter(120),
  sort: z.optional(z.enum(CITATION_SORT_KEYS)),
  dir: directionParam,
  page: pageParam,
  pageSize: pageSizeParam,
});
export type CitationListQuery = z.infer<typeof citationListQuerySchema>;
