import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../app.js';

/** Registers /api/auth/* (sign-up, sign-in, sessions, codes, settings). */
export async function registerAccounts(_app: FastifyInstance, _context: AppContext): Promise<void> {}
