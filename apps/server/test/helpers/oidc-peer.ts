import { once } from "node:events";
import { createServer, type Server } from "node:http";
import Provider from "oidc-provider";
import { freePort } from "./server-process.ts";

export interface PeerAccount {
  email?: string;
  given_name?: string;
  family_name?: string;
  email_verified?: boolean;
}

/**
 * A real OpenID provider (`oidc-provider`) on loopback with its development login form: any
 * login name signs in as the account of that name. Claims of `profile` and `email` reach the
 * relying party only through userinfo (the provider's default, as many real ones do).
 */
export class OidcPeer {
  private constructor(
    readonly issuer: string,
    private readonly server: Server,
  ) {}

  static async start(options: {
    clientId: string;
    clientSecret: string;
    redirectUri: string;
    accounts: Record<string, PeerAccount>;
  }): Promise<OidcPeer> {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: options.clientId,
          client_secret: options.clientSecret,
          redirect_uris: [options.redirectUri],
          grant_types: ["authorization_code"],
          response_types: ["code"],
          token_endpoint_auth_method: "client_secret_post",
        },
      ],
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["given_name", "family_name"] },
      cookies: { keys: ["oidc-peer-cookie-key"] },
      findAccount: async (_context, id) => ({
        accountId: id,
        claims: async () => ({ sub: id, ...(options.accounts[id] ?? {}) }),
      }),
    });
    const server = createServer(provider.callback());
    server.listen(port, "127.0.0.1");
    await once(server, "listening");
    return new OidcPeer(issuer, server);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * A person at the provider: follows its redirects, fills the login form with `login` and
 * confirms the consent screen, and stops at the first URL outside the provider (the callback).
 */
export async function signInAtProvider(
  authorizationUrl: string,
  login: string,
  stopAt: string,
): Promise<URL> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let step = 0; step < 20; step += 1) {
    if (url.startsWith(stopAt)) return new URL(url);
    const response = await fetch(url, {
      method: body ? "POST" : "GET",
      redirect: "manual",
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; "),
        ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      ...(body ? { body: body.toString() } : {}),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const pair = cookie.split(";")[0] as string;
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
    }
    if (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get("location") as string, url).toString();
      body = undefined;
      continue;
    }
    const html = await response.text();
    const action = /action="([^"]+)"/.exec(html)?.[1];
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt)
      throw new Error(`unexpected page at ${url}: ${response.status} ${html.slice(0, 200)}`);
    url = new URL(action.replaceAll("&amp;", "&"), url).toString();
    body = new URLSearchParams(prompt === "login" ? { prompt, login, password: "any" } : { prompt });
  }
  throw new Error("too many steps at the provider");
}
