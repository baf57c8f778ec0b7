export * from "./auth.ts";
export * from "./common.ts";
export * from "./gdpr.ts";
export * from "./health.ts";
export * from "./outbox.ts";
export * from "./profile.ts";
