/** Sets a cookie the way a server reply would, for tests of code that reads cookies. */
export function setTestCookie(name: string, value: string, maxAgeSeconds = 3600): void {
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom offers no Cookie Store API
  document.cookie = `${name}=${value}; Max-Age=${maxAgeSeconds}; Path=/`;
}
