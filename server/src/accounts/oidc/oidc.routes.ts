import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app.js';

/** GET /api/auth/oauth/:provider/login and its callback (OpenID Connect through openid-client). */
export async function registerOidcRoutes(_app: FastifyInstance, _context: AppContext): Promise<void> {}
