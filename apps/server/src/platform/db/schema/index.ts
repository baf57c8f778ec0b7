export * from "./accounts.ts";
export * from "./applications.ts";
export * from "./distribution.ts";
export * from "./mail.ts";
export * from "./organizations.ts";
export * from "./projects.ts";
export * from "./users.ts";
