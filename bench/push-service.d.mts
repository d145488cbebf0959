import type { IncomingHttpHeaders } from 'node:http';

export interface PushedMessage {
  id: string;
  at: number;
  method: string | undefined;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface PushService {
  origin: string;
  /** Trust it with NODE_EXTRA_CA_CERTS. */
  certFile: string;
  received: PushedMessage[];
  subscribe(id: string, status?: number): { endpoint: string; keys: { p256dh: string; auth: string } };
  answer(id: string, status: number): void;
  to(id: string): PushedMessage[];
  until(check: (received: PushedMessage[]) => boolean, timeoutMs?: number): Promise<PushedMessage[]>;
  // biome-ignore lint/suspicious/noExplicitAny: the payload is whatever Hearth sent
  decrypt(message: PushedMessage): any;
  vapid(message: PushedMessage): {
    header: { typ?: string; alg: string };
    claims: { aud: string; exp: number; sub: string };
    key: string;
  };
  stop(): Promise<void>;
}

export function startPushService(): Promise<PushService>;
