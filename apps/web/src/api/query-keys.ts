// Every cache key in one place so that invalidation after a change hits the right entries.
export const queryKeys = {
  page: (slug: string) => ["pages", slug] as const,
  landing: () => ["landing"] as const,
  tariffs: () => ["tariffs"] as const,
  blogList: (page: number) => ["blog", "list", page] as const,
  blogPost: (slug: string) => ["blog", "post", slug] as const,
  profile: () => ["profile"] as const,
  dataExports: () => ["data-exports"] as const,
  organization: (id: number) => ["organization", id] as const,
  usage: (id: number) => ["usage", id] as const,
  staff: (orgId: number, page: number, search: string) => ["staff", orgId, page, search] as const,
  staffAll: (orgId: number) => ["staff", orgId] as const,
  teams: (orgId: number) => ["teams", orgId] as const,
  projects: (orgId: number) => ["projects", orgId] as const,
  userSearch: (orgId: number, search: string) => ["user-search", orgId, search] as const,
  appsAll: () => ["apps"] as const,
  apps: (orgId: number, page: number, title: string, mobileType: number | null) =>
    ["apps", "list", orgId, page, title, mobileType] as const,
  app: (id: number) => ["apps", "detail", id] as const,
  appBuilds: (id: number, page: number) => ["apps", "builds", id, page] as const,
  appRole: (id: number) => ["apps", "role", id] as const,
  appLogs: (id: number, page: number) => ["apps", "logs", id, page] as const,
};
