import type { FastifyReply, FastifyRequest } from "fastify";
import { keptBytes } from "../platform/cache/kept-bytes.ts";

export const maxPageSize = 100;

export interface PageParams {
  page: number;
  pageSize: number;
  offset: number;
}

export interface Page<T> {
  count: number;
  next: string | null;
  previous: string | null;
  results: T[];
}

export function pageParams(query: { page?: number; page_size?: number }, defaultPageSize = 20): PageParams {
  const page = query.page ?? 1;
  const pageSize = Math.min(query.page_size ?? defaultPageSize, maxPageSize);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

function pageUrl(publicUrl: string, requestUrl: string, page: number): string {
  const url = new URL(requestUrl, publicUrl);
  if (page === 1) url.searchParams.delete("page");
  else url.searchParams.set("page", String(page));
  return url.toString();
}

/** Wraps one page of results in the list shape of the API, with absolute next/previous links. */
export function toPage<T>(
  request: Pick<FastifyRequest, "url">,
  publicUrl: string,
  params: PageParams,
  count: number,
  results: T[],
): Page<T> {
  const hasNext = params.offset + results.length < count;
  return {
    count,
    next: hasNext ? pageUrl(publicUrl, request.url, params.page + 1) : null,
    previous: params.page > 1 ? pageUrl(publicUrl, request.url, params.page - 1) : null,
    results,
  };
}

/**
 * A short list held whole (an app's groups, saved addresses, install links) in the page shape
 * every list answers; the default page size covers the usual list in one page.
 */
export function listAsPage<T>(
  request: Pick<FastifyRequest, "url">,
  publicUrl: string,
  query: { page?: number; page_size?: number },
  items: T[],
): Page<T> {
  const params = pageParams(query, maxPageSize);
  return toPage(
    request,
    publicUrl,
    params,
    items.length,
    items.slice(params.offset, params.offset + params.pageSize),
  );
}

/**
 * The JSON of a page whose results are already serialized (cached records), spliced in as
 * they are instead of being parsed and stringified again.
 */
export function pageJson(page: Page<unknown>, resultsJson: string[]): string {
  return `${pageOpening(page)}${resultsJson.join(",")}]}`;
}

/** The page's JSON up to its results' opening bracket: the records and `]}` follow it. */
function pageOpening(page: Page<unknown>): string {
  // The frame ends with `"results":[]}`: the records go between the brackets.
  return JSON.stringify({ ...page, results: [] }).slice(0, -2);
}

const comma = Buffer.from(",");
const closing = Buffer.from("]}");

/** As pageJson, as UTF-8 bytes of its own, for pages kept in a cache (see keptBytes). */
export function pageBytes(page: Page<unknown>, results: ReadonlyArray<string | Buffer>): Buffer {
  const parts: Buffer[] = [Buffer.from(pageOpening(page))];
  for (const [index, record] of results.entries()) {
    if (index > 0) parts.push(comma);
    parts.push(typeof record === "string" ? Buffer.from(record) : record);
  }
  parts.push(closing);
  return keptBytes(parts);
}

/**
 * Sends JSON already serialized (pageJson, a cached page) as it is: its records were shaped by
 * their schema when they were made, so the response schema does not check them again.
 */
export function sendJson(reply: FastifyReply, json: string | Buffer) {
  return reply
    .type("application/json; charset=utf-8")
    .serializer((payload: unknown) => payload as string)
    .send(json);
}
