import type { Role } from '@hearth/contracts';
import { testUser } from '../../shared/session/test-user.js';

// The household the access component tests show (admin Ada, resident Rita, user Kim), as /api/auth/users lists it.

const person = (id: string, role: Role, first: string) =>
  testUser(id, role, { first_name: first, name: `${first} Test`, email_confirmed: true });

export const admin = person('root', 'admin', 'Ada');
export const resident = person('rita', 'resident', 'Rita');
export const kid = person('kim', 'user', 'Kim');
export const usersPage = { users: [admin, resident, kid], page: 1, page_size: 100, total: 3, total_pages: 1 };
