/**
 * samlify, loaded without its typings: they import xmldom's, which add the browser DOM library
 * to the whole server's type check (and change what Node's fetch accepts). The module name is a
 * variable so the type checker leaves the package alone; this interface covers what is used.
 */
export interface IdpMetadataReader {
  getEntityID(): string;
  getSingleSignOnService(binding: string): string | Record<string, string> | undefined;
  getX509Certificate(use: string): string | string[];
}

export interface SamlifyEntity {
  getMetadata(): string;
}

export interface IdentityProviderInstance extends SamlifyEntity {
  createLoginResponse(
    sp: SamlifyEntity,
    requestInfo: { extract: { request: { id: string } } } | null,
    binding: string,
    user: Record<string, unknown>,
    customTagReplacement?: (template: string) => { id: string; context: string },
    encryptThenSign?: boolean,
    relayState?: string,
  ): Promise<{ id: string; context: string; entityEndpoint: string; type: string }>;
}

export interface Samlify {
  IdPMetadata(xml: string | Buffer): IdpMetadataReader;
  IdentityProvider(options: Record<string, unknown>): IdentityProviderInstance;
  ServiceProvider(options: Record<string, unknown>): SamlifyEntity;
  setSchemaValidator(validator: { validate(xml: string): Promise<unknown> }): void;
}

const samlifyModule = "samlify";
let loaded: Promise<Samlify> | undefined;

export function loadSamlify(): Promise<Samlify> {
  loaded ??= import(samlifyModule).then((module) => (module.default ?? module) as Samlify);
  return loaded;
}
