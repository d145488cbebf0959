import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app.js';

/** Profile pictures: generate-avatar, upload (sniffed, re-encoded) and serving them. */
export async function registerPictureRoutes(_app: FastifyInstance, _context: AppContext): Promise<void> {}
