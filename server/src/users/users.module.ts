import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';
import { userAdminRoutes } from './users.routes.js';
import { UsersAdminRepository } from './users-admin.repository.js';

/** Registers user administration: GET /api/auth/users, PATCH /api/auth/users/:id, lockout. */
export async function registerUserAdmin(app: FastifyInstance, context: AppContext): Promise<void> {
  userAdminRoutes(app, context, new UsersAdminRepository(context.storage.db, context.storage.dialect));
}
