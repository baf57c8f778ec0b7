import * as client from "openid-client";
import { guardedFetch } from "../../platform/net/guarded-fetch.ts";

export interface OidcClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Discovery documents, key sets and token answers are a few kilobytes. */
const maxProviderAnswerBytes = 1024 * 1024;

/**
 * The identity provider's configuration (discovered from the issuer). Every request the client
 * makes connects only to a public address, unless the instance allows private targets (then
 * plain http is allowed too: an on-premises provider, or a test).
 */
export async function discoverProvider(settings: OidcClientSettings, allowPrivateTargets: boolean) {
  const publicFetch: client.CustomFetch = (url, options) =>
    guardedFetch(url, options, { allowPrivateTargets, timeoutMs: 10_000, maxBytes: maxProviderAnswerBytes });
  const config = await client.discovery(
    new URL(settings.issuer),
    settings.clientId,
    undefined,
    client.ClientSecretPost(settings.clientSecret),
    {
      [client.customFetch]: publicFetch,
      timeout: 10,
      ...(allowPrivateTargets ? { execute: [client.allowInsecureRequests] } : {}),
    },
  );
  config[client.customFetch] = publicFetch;
  return config;
}

export interface AuthorizationStart {
  url: URL;
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** Where the browser goes to sign in: authorization code with PKCE, a state and a nonce. */
export async function startAuthorization(
  config: client.Configuration,
  options: { redirectUri: string; scopes: string; loginHint?: string },
): Promise<AuthorizationStart> {
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: options.redirectUri,
    scope: options.scopes,
    response_type: "code",
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    nonce,
    ...(options.loginHint ? { login_hint: options.loginHint } : {}),
  });
  return { url, state, nonce, codeVerifier };
}

export interface SignedInPerson {
  subject: string;
  email: string;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
}

/**
 * Finishes the sign-in: exchanges the code (checking state, nonce and PKCE), and reads the
 * person from the ID token, or from userinfo when the token carries no e-mail.
 */
export async function finishAuthorization(
  config: client.Configuration,
  callbackUrl: URL,
  expected: { state: string; nonce: string; codeVerifier: string },
): Promise<SignedInPerson> {
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: expected.codeVerifier,
    expectedState: expected.state,
    expectedNonce: expected.nonce,
    idTokenExpected: true,
  });
  const claims = tokens.claims();
  if (!claims) throw new Error("the provider sent no ID token");
  let source: Record<string, unknown> = claims;
  if (typeof claims.email !== "string" || !claims.email) {
    source = {
      ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)),
      ...stripEmpty(claims),
    };
  }
  const email = typeof source.email === "string" ? source.email.trim().toLowerCase() : "";
  return {
    subject: claims.sub,
    email,
    // Providers that do not say are trusted to have checked (Entra ID leaves the claim out).
    emailVerified: source.email_verified !== false,
    firstName: typeof source.given_name === "string" ? source.given_name : "",
    lastName: typeof source.family_name === "string" ? source.family_name : "",
  };
}

function stripEmpty(claims: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(claims).filter(([, value]) => value !== undefined && value !== ""),
  );
}
