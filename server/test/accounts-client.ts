import type { LightMyRequestResponse } from 'fastify';
import type { HttpApp } from '../src/http/http-app.js';

export interface Person {
  first_name: string;
  last_name: string;
  user_name: string;
  email: string;
  password: string;
}

let counter = 0;
/** A fresh, valid sign-up payload. */
export function person(overrides: Partial<Person> = {}): Person {
  counter++;
  const tag = `${Date.now().toString(36)}${counter}`;
  return {
    first_name: 'Grace',
    last_name: 'Hopper',
    user_name: `grace_${tag}`,
    email: `grace.${tag}@example.com`,
    password: 'correct horse battery staple',
    ...overrides,
  };
}

/** Thin helpers over app.inject() for the /api/auth calls. */
export class AccountsClient {
  constructor(private readonly app: () => HttpApp) {}

  post(path: string, body?: unknown, token?: string, headers: Record<string, string> = {}) {
    return this.app().inject({
      method: 'POST',
      url: `/api/auth${path}`,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  }

  me(token: string) {
    return this.app().inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${token}` },
    });
  }

  async signup(who: Person = person()): Promise<{ id: string } & Person> {
    const res = await this.post('/signup', who);
    if (res.statusCode !== 201) throw new Error(`signup failed: ${res.statusCode} ${res.body}`);
    return { ...who, id: res.json().id };
  }

  async login(who: {
    email: string;
    password: string;
  }): Promise<{ access_token: string; refresh_token: string }> {
    const res = await this.post('/login/start', { email: who.email, password: who.password });
    if (res.statusCode !== 200 || !res.json().access_token)
      throw new Error(`login failed: ${res.statusCode} ${res.body}`);
    return res.json();
  }
}

export const json = (res: LightMyRequestResponse) => res.json() as Record<string, unknown>;
