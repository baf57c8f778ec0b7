export * from "./auth.ts";
export * from "./common.ts";
export * from "./health.ts";
export * from "./organization.ts";
export * from "./outbox.ts";
export * from "./plan.ts";
export * from "./staff.ts";
export * from "./team.ts";
