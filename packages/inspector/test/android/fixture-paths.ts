import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

export const androidFixture = (name: string): string =>
  fileURLToPath(new URL(`../../fixtures/android/${name}`, import.meta.url));

export const readAndroidFixture = (name: string): Promise<Buffer> => readFile(androidFixture(name));

/** The fixture key's certificate, as `apksigner verify --print-certs` and `keytool -printcert` report it. */
export const fixtureCertificate = {
  subject: "C=US, O=Tarmac, CN=Tarmac Fixtures",
  issuer: "C=US, O=Tarmac, CN=Tarmac Fixtures",
  sha256: "02f357467854a3daab314bd582c6313506ab45dfbf5771b2b99410f84e225de4",
  not_before: "2024-01-01T00:00:00.000Z",
  not_after: "2051-05-19T00:00:00.000Z",
};
