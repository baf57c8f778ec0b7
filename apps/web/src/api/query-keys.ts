// Every cache key in one place so that invalidation after a change hits the right entries.
export const queryKeys = {
  page: (slug: string) => ["pages", slug] as const,
  landing: () => ["landing"] as const,
  tariffs: () => ["tariffs"] as const,
  blogList: (page: number) => ["blog", "list", page] as const,
  blogPost: (slug: string) => ["blog", "post", slug] as const,
  download: (key: string) => ["getapp", key] as const,
};
