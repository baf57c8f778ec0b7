// Every table, for tests that set up or check rows directly (the product reads them only through their owning module).
export * from "../../src/http/throttle/throttle.tables.ts";
export * from "../../src/modules/application/application.tables.ts";
export * from "../../src/modules/application/permission-group.tables.ts";
export * from "../../src/modules/auth/auth.tables.ts";
export * from "../../src/modules/distribution/distribution.tables.ts";
export * from "../../src/modules/gdpr/gdpr.tables.ts";
export * from "../../src/modules/mail-server/mail-server.tables.ts";
export * from "../../src/modules/organization/organization.tables.ts";
export * from "../../src/modules/plan/plan.tables.ts";
export * from "../../src/modules/send-builds/send-builds.tables.ts";
export * from "../../src/modules/storage/storage.tables.ts";
export * from "../../src/modules/team/team.tables.ts";
export * from "../../src/modules/tester/tester.tables.ts";
export * from "../../src/modules/two-factor/two-factor.tables.ts";
export * from "../../src/modules/upload/upload.tables.ts";
export * from "../../src/modules/users/users.tables.ts";
export * from "../../src/platform/mail/outbox.tables.ts";
