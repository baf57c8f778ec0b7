// Every cache key in one place so that invalidation after a change hits the right entries.
export const queryKeys = {
  page: (slug: string) => ["pages", slug] as const,
  landing: () => ["landing"] as const,
  tariffs: () => ["tariffs"] as const,
  blogList: (page: number) => ["blog", "list", page] as const,
  blogPost: (slug: string) => ["blog", "post", slug] as const,
  download: (key: string) => ["getapp", key] as const,
  profile: () => ["profile"] as const,
  dataExports: () => ["data-exports"] as const,
  organization: (id: number) => ["organization", id] as const,
  usage: (id: number) => ["usage", id] as const,
  staff: (orgId: number, page: number, search: string) => ["staff", orgId, page, search] as const,
  staffAll: (orgId: number) => ["staff", orgId] as const,
  teams: (orgId: number) => ["teams", orgId] as const,
  projects: (orgId: number) => ["projects", orgId] as const,
  userSearch: (orgId: number, search: string) => ["user-search", orgId, search] as const,
};
