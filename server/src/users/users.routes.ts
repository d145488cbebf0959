import { ROLES } from '@hearth/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../app.js';
import { toUserView } from './user.view.js';
import type { Role, UserRecord } from './users.repository.js';
import { lockDenial, manageDenial, roleChangeDenial, USER_ADMIN_ERRORS } from './users.service.js';
import type { UsersAdminRepository } from './users-admin.repository.js';

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
const MAX_QUERY_LENGTH = 200;
const MAX_NAME_LENGTH = 64;

class BadRequest extends Error {}

const asObject = (body: unknown): Record<string, unknown> =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

function positiveInteger(value: unknown, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,8}$/.test(value)) {
    throw new BadRequest(`${name} must be a positive integer`);
  }
  return Number(value);
}

export function parseListQuery(query: Record<string, unknown>) {
  const page = positiveInteger(query.page, 1, 'page');
  const pageSize = positiveInteger(query.page_size, DEFAULT_PAGE_SIZE, 'page_size');
  if (!(PAGE_SIZES as readonly number[]).includes(pageSize)) {
    throw new BadRequest(`page_size must be one of ${PAGE_SIZES.join(', ')}`);
  }
  if (query.q !== undefined && typeof query.q !== 'string') throw new BadRequest('q must be text');
  const q = query.q?.trim() || undefined;
  if (q && q.length > MAX_QUERY_LENGTH)
    throw new BadRequest(`q must be at most ${MAX_QUERY_LENGTH} characters`);
  return { q, page, pageSize };
}

/** The fields a PATCH may change; everything else in the body is ignored (no mass assignment). */
export function parsePatch(body: Record<string, unknown>): {
  role?: Role;
  firstName?: string;
  lastName?: string;
} {
  const patch: { role?: Role; firstName?: string; lastName?: string } = {};
  if (body.role !== undefined) {
    if (typeof body.role !== 'string' || !(ROLES as readonly string[]).includes(body.role)) {
      throw new BadRequest('Unknown role');
    }
    patch.role = body.role as Role;
  }
  for (const [field, key] of [
    ['first_name', 'firstName'],
    ['last_name', 'lastName'],
  ] as const) {
    if (body[field] === undefined) continue;
    const value = typeof body[field] === 'string' ? body[field].trim() : '';
    if (!value) throw new BadRequest('First name and last name are required');
    if (value.length > MAX_NAME_LENGTH) {
      throw new BadRequest(`First name and last name must be at most ${MAX_NAME_LENGTH} characters`);
    }
    patch[key] = value;
  }
  return patch;
}

export function parseLock(body: Record<string, unknown>): boolean {
  const value = body.lock ?? body.locked;
  if (typeof value !== 'boolean') throw new BadRequest('lock must be true or false');
  return value;
}

/** Sends 400 for a BadRequest thrown while reading the request; rethrows anything else. */
async function answering(reply: FastifyReply, work: () => Promise<unknown>) {
  try {
    return await work();
  } catch (error) {
    if (error instanceof BadRequest) return reply.code(400).send({ error: error.message });
    throw error;
  }
}

export function userAdminRoutes(app: FastifyInstance, context: AppContext, repository: UsersAdminRepository) {
  const staff = context.auth.requireRole('resident', 'admin');
  const caller = (request: FastifyRequest): UserRecord => request.caller as UserRecord;

  app.get('/api/auth/users', { preHandler: staff }, (request, reply) =>
    answering(reply, async () => {
      const search = parseListQuery(asObject(request.query));
      const { users, total } = await repository.search(search);
      return {
        users: users.map(toUserView),
        page: search.page,
        page_size: search.pageSize,
        total,
        total_pages: Math.max(1, Math.ceil(total / search.pageSize)),
      };
    }),
  );

  app.patch<{ Params: { id: string } }>(
    '/api/auth/users/:id',
    { preHandler: context.auth.requireUser },
    (request, reply) =>
      answering(reply, async () => {
        const me = caller(request);
        const { id } = request.params;
        const patch = parsePatch(asObject(request.body));
        if (me.role === 'user' && id !== me.id)
          return reply.code(403).send({ error: USER_ADMIN_ERRORS.forbidden });
        let target = await context.users.findById(id);
        if (!target) return reply.code(404).send({ error: USER_ADMIN_ERRORS.notFound });
        const denial = manageDenial(me, target);
        if (denial) return reply.code(403).send({ error: denial });

        if (patch.role !== undefined) {
          const role = patch.role;
          const result = await repository.setRole(id, role, (current, otherAdmins) =>
            roleChangeDenial(me, current, role, otherAdmins),
          );
          if ('notFound' in result) return reply.code(404).send({ error: USER_ADMIN_ERRORS.notFound });
          if ('denial' in result) return reply.code(403).send({ error: result.denial });
          target = result.user;
        }
        if (patch.firstName !== undefined || patch.lastName !== undefined) {
          const updated = await repository.updateNames(
            id,
            patch.firstName ?? target.firstName,
            patch.lastName ?? target.lastName,
          );
          if (!updated) return reply.code(404).send({ error: USER_ADMIN_ERRORS.notFound });
          target = updated;
        }
        return toUserView(target);
      }),
  );

  app.post<{ Params: { id: string } }>(
    '/api/auth/users/:id/lockout',
    { preHandler: staff },
    (request, reply) =>
      answering(reply, async () => {
        const me = caller(request);
        const lock = parseLock(asObject(request.body));
        const result = await repository.setAdminLock(request.params.id, lock, (target, otherActiveAdmins) =>
          lockDenial(me, target, lock, otherActiveAdmins),
        );
        if ('notFound' in result) return reply.code(404).send({ error: USER_ADMIN_ERRORS.notFound });
        if ('denial' in result) return reply.code(403).send({ error: result.denial });
        if (lock) await context.sessions.revokeAllForUser(result.user.id);
        return toUserView(result.user);
      }),
  );
}
