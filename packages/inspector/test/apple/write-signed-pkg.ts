import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { pkgFiles } from "./pkg-content.ts";
import { writeXar } from "./xar-writer.ts";

/**
 * Used by fixtures/make-apple.sh: writes a product archive whose TOC is signed by
 * `openssl dgst -sha1 -sign` with the fixture signer key (xar's RSA signature over the TOC digest).
 * Arguments: KEY.pem CERT.der CA.der OUT.pkg
 */
const [key, cert, ca, out] = process.argv.slice(2);
if (!key || !cert || !ca || !out) throw new Error("usage: write-signed-pkg KEY CERT.der CA.der OUT");

const archive = writeXar(pkgFiles, {
  signer: {
    certificates: [readFileSync(cert), readFileSync(ca)],
    size: 256,
    sign: (toc) => execFileSync("openssl", ["dgst", "-sha1", "-sign", key], { input: toc }),
  },
});
writeFileSync(out, archive);
