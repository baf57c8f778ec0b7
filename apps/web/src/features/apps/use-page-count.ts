import { useState } from "react";

/**
 * Pages of a list whose page size the server decides: the size is learnt from the first page
 * (a full first page is as large as any other).
 */
export function usePageCount(page: number, data: { count: number; results: unknown[] } | undefined): number {
  const [pageSize, setPageSize] = useState(0);
  const shown = data?.results.length ?? 0;
  if (page === 1 && shown > pageSize) setPageSize(shown);
  if (!data || pageSize === 0) return page;
  return Math.max(page, Math.ceil(data.count / pageSize));
}
