import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { tempDir } from "../helpers/temp-dirs.ts";

export interface TestKeystore {
  path: string;
  file: Buffer;
  storePassword: string;
  keyAlias: string;
  keyPassword: string;
}

/**
 * A keystore made by the JDK's keytool (a real implementation of both formats), with a pinned
 * validity start so the certificate does not depend on the machine's clock.
 */
export function makeKeystore(options: {
  type: "JKS" | "PKCS12";
  keyAlgorithm: "RSA" | "EC";
  alias?: string;
  storePassword?: string;
  keyPassword?: string;
  name?: string;
}): TestKeystore {
  const dir = tempDir("keystore");
  const file = path.join(dir, options.type === "JKS" ? "release.jks" : "release.p12");
  const storePassword = options.storePassword ?? "store-secret";
  const keyPassword = options.type === "JKS" ? (options.keyPassword ?? "key-secret") : storePassword;
  const keyAlias = options.alias ?? "release";
  execFileSync(
    "keytool",
    [
      "-genkeypair",
      "-keystore",
      file,
      "-storetype",
      options.type,
      "-storepass",
      storePassword,
      "-keypass",
      keyPassword,
      "-alias",
      keyAlias,
      "-keyalg",
      options.keyAlgorithm,
      ...(options.keyAlgorithm === "RSA" ? ["-keysize", "2048"] : ["-groupname", "secp256r1"]),
      "-validity",
      "10000",
      "-startdate",
      "2024/01/01 00:00:00",
      "-dname",
      `CN=${options.name ?? "Tarmac Test"}, O=Tarmac`,
    ],
    { stdio: "pipe" },
  );
  return { path: file, file: readFileSync(file), storePassword, keyAlias, keyPassword };
}
