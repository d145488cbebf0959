import type { FastifyReply } from 'fastify';

/** The texts the web app shows or matches (SPEC sections 5 and 8); asserted in tests. */
export const MESSAGES = {
  allFieldsRequired: 'All fields are required',
  emailAndPasswordRequired: 'Email and password are required',
  emailRequired: 'Email is required',
  invalidEmail: 'Invalid email address',
  invalidUserName: 'Username must be 3-32 characters: letters, digits, ".", "_" or "-"',
  nameTooLong: 'First name and last name must be at most 64 characters',
  emailTaken: 'An account with this email already exists',
  userNameTaken: 'This username is already taken',
  invalidCredentials: 'Invalid email or password',
  accountLocked: 'Account locked. Try again later',
  adminLocked: 'Account locked by administrator',
  signInUnavailable: 'Sign-in is temporarily unavailable, please try again later',
  noPending2fa: 'No pending 2FA request',
  invalidCode: 'Invalid or expired code',
  codeBurned: 'Too many wrong codes: request a new code',
  tooManyCodes: 'Too many codes requested: try again in an hour',
  invalidRefreshToken: 'Invalid or expired refresh token',
  forbidden: 'Forbidden',
  emailAlreadyVerified: 'Email is already verified',
  twoFactorAlreadyEnabled: 'Two-factor authentication is already enabled',
  twoFactorNotEnabled: 'Two-factor authentication is not enabled',
  passwordRequired: 'Password is required',
  allPasswordFieldsRequired: 'All password fields are required',
  wrongPassword: 'Current password is incorrect',
  samePassword: 'New password must be different from current password',
  mailFailed: 'Failed to send email, please try again later',
  tooManyRequests: 'Too many requests, please try again later',
} as const;

export const cooldownMessage = (seconds: number) => `Please wait ${seconds}s before requesting another code`;

/** A client-facing failure: status, the `{error}` text and any extra body fields or headers. */
export class AccountsError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Runs a route's work and turns an AccountsError into its JSON answer. */
export async function answer<T>(reply: FastifyReply, work: () => Promise<T>, status = 200) {
  try {
    const body = await work();
    return reply.code(status).send(body);
  } catch (error) {
    if (!(error instanceof AccountsError)) throw error;
    return reply
      .code(error.statusCode)
      .headers(error.headers)
      .send({ error: error.message, ...error.extra });
  }
}
