import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type Paged } from '../../contract/lists';
import type { DataTablePage } from '../../ui/data-table';

interface PagedSearch {
  page?: number | undefined;
  pageSize?: number | undefined;
}

/**
 * A list's pager wired to its URL (docs/sections.md "Lists"): a page change writes `page`, a page-size change writes
 * `pageSize` and goes back to page 1; defaults are left out of the URL, so a plain link and page 1 read the same.
 */
export function urlPaging<S extends PagedSearch>(
  page: Paged<unknown>,
  noun: DataTablePage['noun'],
  onSearch: (update: (current: S) => S) => void,
): DataTablePage {
  return {
    page: page.page,
    pageSize: page.pageSize,
    pageSizes: PAGE_SIZES,
    total: page.total,
    totalIsLowerBound: page.totalIsLowerBound,
    noun,
    onPageChange: (next) => onSearch((current) => ({ ...current, page: next === 1 ? undefined : next })),
    onPageSizeChange: (pageSize) =>
      onSearch((current) => ({
        ...current,
        pageSize: pageSize === DEFAULT_PAGE_SIZE ? undefined : pageSize,
        page: undefined,
      })),
  };
}
