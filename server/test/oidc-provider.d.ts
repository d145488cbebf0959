// oidc-provider (the OpenID provider the server and browser tests run) ships no types; this
// declares the little of it they use.
declare module 'oidc-provider' {
  import type { IncomingMessage, Server, ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  interface Configuration {
    clients: Record<string, unknown>[];
    findAccount(ctx: unknown, id: string): Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    features?: Record<string, { enabled: boolean }>;
    pkce?: { required(): boolean };
    cookies?: { keys: string[] };
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    listen(port: number, callback?: () => void): Server;
  }
}
