import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/modules/*/*.tables.ts", "./src/http/*/*.tables.ts", "./src/platform/*/*.tables.ts"],
  out: "./migrations",
});
