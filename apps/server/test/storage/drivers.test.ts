import { generateKeyPairSync } from "node:crypto";
import { Readable } from "node:stream";
import { BlobServiceClient } from "@azure/storage-blob";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AzureStorageDriver } from "../../src/platform/storage/azure-driver.ts";
import type { DriverContext } from "../../src/platform/storage/create-storage.ts";
import { GcsStorageDriver } from "../../src/platform/storage/gcs-driver.ts";
import { LocalStorageDriver } from "../../src/platform/storage/local-driver.ts";
import { ProxyLinks } from "../../src/platform/storage/proxy-links.ts";
import { S3StorageDriver } from "../../src/platform/storage/s3-driver.ts";
import { UrlSigner } from "../../src/platform/storage/signed-url.ts";
import type { StorageDriver } from "../../src/platform/storage/storage-driver.ts";
import type { GcsServiceAccount, S3Settings } from "../../src/platform/storage/storage-settings.ts";
import { describeAssemblyContract } from "../helpers/assembly-contract.ts";
import { type AzurePeer, startAzurePeer } from "../helpers/azure-peer.ts";
import { type FakeGcs, startFakeGcs } from "../helpers/fake-gcs.ts";
import { type S3Peer, s3PeerCredentials, startS3Peer } from "../helpers/s3-peer.ts";
import { describeStorageContract } from "../helpers/storage-contract.ts";
import { tempDir } from "../helpers/temp-dirs.ts";

const links = new ProxyLinks(new UrlSigner("d".repeat(40)), "http://tarmac.test", null);
const direct: DriverContext = { links, proxyDownloads: false };

let s3: S3Peer;
let azure: AzurePeer;
let gcs: FakeGcs;
let account: GcsServiceAccount;
const drivers: Record<string, StorageDriver> = {};

const s3Settings = (prefix: string, extra: Partial<S3Settings> = {}): S3Settings => ({
  kind: "s3",
  endpoint: s3.endpoint,
  region: "us-east-1",
  bucket: "contract",
  prefix,
  forcePathStyle: true,
  ...s3PeerCredentials,
  ...extra,
});

beforeAll(async () => {
  s3 = await startS3Peer(["contract"]);
  azure = await startAzurePeer();
  await BlobServiceClient.fromConnectionString(azure.connectionString)
    .getContainerClient("contract")
    .create();
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  account = {
    type: "service_account",
    project_id: "tarmac-test",
    private_key_id: "k1",
    private_key: privateKeyPem,
    client_email: "tarmac@tarmac-test.iam.gserviceaccount.com",
  };
  gcs = await startFakeGcs({ bucket: "contract", clientEmail: account.client_email, privateKeyPem });
  account.token_uri = `${gcs.url}/token`;
  drivers.local = new LocalStorageDriver(tempDir("contract"), links);
  drivers.s3 = new S3StorageDriver(s3Settings("tarmac/"), direct);
  drivers.azure = new AzureStorageDriver(
    { kind: "azure", connectionString: azure.connectionString, container: "contract", prefix: "tarmac/" },
    direct,
  );
  drivers.gcs = new GcsStorageDriver(
    { kind: "gcs", bucket: "contract", prefix: "tarmac/", credentials: account, apiEndpoint: gcs.url },
    direct,
  );
}, 60_000);

afterAll(async () => {
  await s3?.stop();
  await azure?.stop();
  await gcs?.stop();
});

for (const name of ["local", "s3", "azure", "gcs"]) {
  describeStorageContract(name, () => drivers[name] as StorageDriver);
  describeAssemblyContract(name, () => drivers[name] as StorageDriver);
}

describe("object storage drivers", () => {
  it("keep to their prefix: two prefixes in one bucket do not see each other", async () => {
    const first = new S3StorageDriver(s3Settings("first/"), direct);
    const second = new S3StorageDriver(s3Settings("second/"), direct);
    await first.put("orgs/1/x", Readable.from([Buffer.from("one")]));
    await second.put("orgs/1/y", Readable.from([Buffer.from("two")]));
    const listed = async (driver: S3StorageDriver) => {
      const keys: string[] = [];
      for await (const object of driver.list("orgs/")) keys.push(object.key);
      return keys;
    };
    expect(await listed(first)).toEqual(["orgs/1/x"]);
    expect(await listed(second)).toEqual(["orgs/1/y"]);
    expect(await second.stat("orgs/1/x")).toBeNull();
  });

  it("link back to the server when downloads are proxied", async () => {
    const proxied = new S3StorageDriver(s3Settings("tarmac/"), { links, proxyDownloads: true });
    expect(proxied.servesDirectly).toBe(false);
    expect(new URL(await proxied.signedUrl("orgs/1/x", { expiresInSeconds: 60 })).origin).toBe(
      "http://tarmac.test",
    );
  });

  it("fail clearly, not hang, with a wrong key", async () => {
    const s3Wrong = new S3StorageDriver(s3Settings("tarmac/", { accessKeyId: "NOBODY" }), direct);
    await expect(s3Wrong.checkHealth()).rejects.toThrow();
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const gcsWrong = new GcsStorageDriver(
      {
        kind: "gcs",
        bucket: "contract",
        prefix: "",
        credentials: {
          ...account,
          private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
        },
        apiEndpoint: gcs.url,
      },
      direct,
    );
    await expect(gcsWrong.checkHealth()).rejects.toThrow("refused the service account key");
    const azureWrong = new AzureStorageDriver(
      {
        kind: "azure",
        connectionString: azure.connectionString.replace(
          /AccountKey=[^;]+/,
          `AccountKey=${Buffer.alloc(64).toString("base64")}`,
        ),
        container: "contract",
        prefix: "",
      },
      direct,
    );
    await expect(azureWrong.checkHealth()).rejects.toThrow();
  });

  it("round-trip a multipart upload to S3 and Azure byte for byte", async () => {
    const data = Buffer.alloc(20 * 1024 * 1024 + 5, 9);
    data.write("start", 0);
    data.write("end", data.length - 3);
    for (const name of ["s3", "azure"]) {
      const driver = drivers[name] as StorageDriver;
      // Fed in 1 MiB pieces, as an upload arrives: the parts are cut by the driver.
      const pieces = Array.from({ length: Math.ceil(data.length / 1048576) }, (_, index) =>
        data.subarray(index * 1048576, (index + 1) * 1048576),
      );
      const stored = await driver.put("big/build.bin", Readable.from(pieces));
      expect(stored.size).toBe(data.length);
      const back: Buffer[] = [];
      for await (const chunk of await driver.read("big/build.bin")) back.push(chunk as Buffer);
      expect(Buffer.concat(back).equals(data), name).toBe(true);
    }
  });

  it("round-trip a multi-chunk resumable upload to Google byte for byte, and cancel failed sessions", async () => {
    const data = Buffer.alloc(20 * 1024 * 1024 + 5, 7);
    data.write("start", 0);
    data.write("end", data.length - 3);
    const driver = drivers.gcs as GcsStorageDriver;
    await driver.put("big/build.bin", Readable.from([data]));
    const back: Buffer[] = [];
    for await (const chunk of await driver.read("big/build.bin")) back.push(chunk as Buffer);
    expect(Buffer.concat(back).equals(data)).toBe(true);
    expect(gcs.openSessions()).toBe(0);
  });

  it("refuse a tampered or expired Google signed URL", async () => {
    const driver = drivers.gcs as GcsStorageDriver;
    await driver.put("signed/x", Readable.from([Buffer.from("secret bytes")]));
    const url = new URL(await driver.signedUrl("signed/x", { expiresInSeconds: 60, fileName: "x.apk" }));
    url.searchParams.set("response-content-disposition", "attachment; filename=evil.exe");
    expect((await fetch(url)).status).toBe(403);
    const expired = new URL(await driver.signedUrl("signed/x", { expiresInSeconds: 60 }));
    expired.searchParams.set("X-Goog-Date", "20200101T000000Z");
    expect((await fetch(expired)).status).toBe(403);
  });
});
