// Requests exactly as Updraft's open-source SDKs build them (their API classes), for replay in tests.

export interface FeedbackFields {
  app_key: string;
  sdk_key: string;
  tag: string;
  description: string;
  email: string;
  build_version: string;
  system_version: string;
  device_name: string;
  device_uudid: string;
  navigation_stack: string;
}

/**
 * The Android SDK (Ktor's MultiPartFormDataContent): the screenshot first, as PNG, its extra
 * Content-Disposition value joined to the part's own with "; "; every text part has a Content-Length.
 */
export function androidFeedbackBody(image: Buffer, fields: FeedbackFields) {
  const boundary = "3f1c2b8e9a7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a19f8e7d6c5b4a3";
  const parts: Buffer[] = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name=image; filename="UPDRAFT_SCREENSHOT.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    image,
    Buffer.from("\r\n"),
  ];
  for (const [name, value] of Object.entries(fields)) {
    const bytes = Buffer.from(value, "utf8");
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name=${name}\r\nContent-Length: ${bytes.length}\r\n\r\n`,
      ),
      bytes,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

/**
 * The iOS SDK (ApiResource.createBodyWithParameters): text parts first, then the JPEG named
 * "feedback.jpg" under a malformed "Content Type" line, which servers must tolerate.
 */
export function iosFeedbackBody(image: Buffer, fields: FeedbackFields) {
  const boundary = "Boundary-6A1F37C2-9B3E-4D4C-8E2A-1B2C3D4E5F60";
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="feedback.jpg"\r\nContent Type: image/jpg\r\n\r\n`,
    ),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return {
    payload: Buffer.concat(parts),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  };
}

/** Both SDKs post their JSON calls with this content type (iOS adds an Accept header). */
export const jsonHeaders = { "content-type": "application/json", accept: "application/json" };
