import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useTestApp } from '../../test/app.js';

/** The query parameters a route's schema names (a Zod object's keys). */
const queryKeys = (route: RouteOptions): string[] => {
  const schema = route.schema?.querystring;
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
};

describe('a repeated query parameter', () => {
  const routes: RouteOptions[] = [];
  const t = useTestApp({ onRoute: (route) => routes.push(route) });

  it('is refused with 400 {error} naming it, on every route that reads one, never a 500', async () => {
    const admin = await t.user('admin');
    const authorization = `Bearer ${await t.tokenFor(admin)}`;
    const cases = routes.flatMap((route) =>
      [route.method]
        .flat()
        .flatMap((method) =>
          method === 'HEAD' ? [] : queryKeys(route).map((key) => ({ method, url: route.url, key })),
        ),
    );
    // The routes that read a query today; a new one is walked too.
    expect(cases.map((c) => `${c.method} ${c.url} ${c.key}`)).toEqual(
      expect.arrayContaining([
        'GET /api/auth/users page',
        'POST /api/auth/profile/upload user_id',
        'GET /api/auth/oauth/:provider/callback state',
      ]),
    );
    const answers = [];
    for (const { method, url, key } of cases) {
      const path = url.replace(/:[a-z_]+/g, 'x').replace('*', 'x');
      const response = await t.app.inject({
        method: method as 'GET',
        url: `${path}?${key}=a&${key}=b`,
        headers: { authorization },
      });
      answers.push({ route: `${method} ${url} ${key}`, status: response.statusCode, body: response.json() });
    }
    for (const answer of answers) {
      expect(answer, answer.route).toEqual({
        route: answer.route,
        status: 400,
        body: { error: expect.stringContaining(answer.route.split(' ')[2] as string) },
      });
    }
  });
});
