export * from "./mail.ts";
export * from "./users.ts";
