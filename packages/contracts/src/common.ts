import { z } from "zod";

export const errorBody = z.object({ detail: z.string() }).meta({ id: "Error" });

/** DRF-style list page: absolute next/previous links, pages start at 1. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}

/** The type of a `pageOf(item)` page whose items are `T`. */
export type Page<T> = z.infer<ReturnType<typeof pageOf<z.ZodType<T>>>>;

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: z.coerce.number().int().min(1).max(100).optional(),
});

/**
 * Which organization a request means: `org` (its id), or `subdomain`; with neither, the caller's
 * only organization (a caller in several gets a 400 asking for `org`).
 */
export const organizationSelector = z.object({
  org: z.coerce.number().int().positive().optional(),
  subdomain: z.string().trim().min(1).max(63).optional(),
});
export type OrganizationSelector = z.infer<typeof organizationSelector>;
