import type { SignupRequest } from '@hearth/contracts';
import { z } from 'zod';
import { MESSAGES } from './accounts.errors.js';

/**
 * The bodies of /api/auth (docs/api.md#accounts). Each refusal carries the message the web app shows (docs/strings.md#validation-rules
 * and 8), in the order the checks run. Unknown fields are dropped, so nobody can set what they may
 * not (no mass assignment).
 */

const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:]+$/;
export const USER_NAME = /^[A-Za-z0-9._-]{3,32}$/;
export const NAME_MAX_LENGTH = 64;

/** Text that must not be empty after trimming; the trimmed text is what the service sees. */
const filled = (message: string) => z.string({ error: message }).trim().min(1, { error: message });
/** A password or other secret: must not be empty, never trimmed. */
const secret = (message: string) => z.string({ error: message }).min(1, { error: message });
/** Six-digit codes may come as text or as a number; absent is an empty (wrong) code. */
const code = (message: string) =>
  z
    .union([z.string(), z.number().transform(String)], { error: message })
    .transform((value) => value.trim())
    .default('');
/** The pending sign-in a call is about; absent is none. */
const userId = (message: string) => z.string({ error: message }).default('');

/** A missing (or null) body counts as an empty one: its fields are then missing. */
const orEmpty = (body: unknown) => body ?? {};

/** A body of named fields. */
const body = <Shape extends z.core.$ZodLooseShape>(shape: Shape, message?: string) =>
  z.preprocess(orEmpty, z.object(shape, message ? { error: message } : {}));

/** POST /signup: every field present, then the e-mail, the user name and the lengths. */
export const signupBody = z
  .preprocess(
    orEmpty,
    z.object(
      {
        first_name: filled(MESSAGES.allFieldsRequired),
        last_name: filled(MESSAGES.allFieldsRequired),
        user_name: filled(MESSAGES.allFieldsRequired),
        email: filled(MESSAGES.allFieldsRequired),
        password: z
          .string({ error: MESSAGES.allFieldsRequired })
          .refine((password) => password.trim() !== '', { error: MESSAGES.allFieldsRequired }),
      },
      { error: MESSAGES.allFieldsRequired },
    ),
  )
  .pipe(
    z.object({
      email: z
        .string()
        .max(254, { error: MESSAGES.invalidEmail })
        .regex(EMAIL, { error: MESSAGES.invalidEmail }),
      user_name: z.string().regex(USER_NAME, { error: MESSAGES.invalidUserName }),
      first_name: z.string().max(NAME_MAX_LENGTH, { error: MESSAGES.nameTooLong }),
      last_name: z.string().max(NAME_MAX_LENGTH, { error: MESSAGES.nameTooLong }),
      password: z.string(),
    }),
  ) satisfies z.ZodType<SignupRequest, unknown>;
export type SignupInput = z.output<typeof signupBody>;

export const loginStartBody = body(
  {
    email: filled(MESSAGES.emailAndPasswordRequired),
    password: secret(MESSAGES.emailAndPasswordRequired),
  },
  MESSAGES.emailAndPasswordRequired,
);
export type LoginStartInput = z.output<typeof loginStartBody>;

/** /login/finish and /2fa/email/verify: the pending sign-in's user and the mailed code. */
export const codeBody = body(
  { user_id: userId(MESSAGES.noPending2fa), code: code(MESSAGES.invalidCode) },
  MESSAGES.noPending2fa,
);
export type CodeInput = z.output<typeof codeBody>;

/** /2fa/email/request: resend the sign-in code of a pending sign-in. */
export const pendingUserBody = body({ user_id: userId(MESSAGES.noPending2fa) }, MESSAGES.noPending2fa);
export type PendingUserInput = z.output<typeof pendingUserBody>;

/** /refresh and /logout; a missing token is an invalid one (401), not a malformed request. */
export const refreshTokenBody = body(
  { refresh_token: z.string({ error: MESSAGES.invalidRefreshToken }).default('') },
  MESSAGES.invalidRefreshToken,
);
export type RefreshTokenInput = z.output<typeof refreshTokenBody>;

/** Calls on the caller's own account: a `user_id`, when given, must be the caller's. */
export const ownAccountBody = body({ user_id: z.string().default('') });
export type OwnAccountInput = z.output<typeof ownAccountBody>;

export const ownCodeBody = body({ user_id: z.string().default(''), code: code(MESSAGES.invalidCode) });
export type OwnCodeInput = z.output<typeof ownCodeBody>;

export const disableTwoFactorBody = body(
  { password: secret(MESSAGES.passwordRequired) },
  MESSAGES.passwordRequired,
);
export type DisableTwoFactorInput = z.output<typeof disableTwoFactorBody>;

export const resetRequestBody = body({ email: filled(MESSAGES.emailRequired) }, MESSAGES.emailRequired);
export type ResetRequestInput = z.output<typeof resetRequestBody>;

export const resetConfirmBody = body(
  {
    email: filled(MESSAGES.allFieldsRequired),
    code: code(MESSAGES.allFieldsRequired).pipe(z.string().min(1, { error: MESSAGES.allFieldsRequired })),
    new_password: secret(MESSAGES.allFieldsRequired),
    /** Keep the connected identity providers (default: disconnect them, issue 32 item 12). */
    keep_providers: z.boolean({ error: MESSAGES.keepProvidersNotBoolean }).default(false),
  },
  MESSAGES.allFieldsRequired,
);
export type ResetConfirmInput = z.output<typeof resetConfirmBody>;

/** /reauth: the password, confirmed again. */
export const reauthBody = body({ password: secret(MESSAGES.passwordRequired) }, MESSAGES.passwordRequired);
export type ReauthInput = z.output<typeof reauthBody>;

export const passwordChangeBody = body(
  {
    current_password: secret(MESSAGES.allPasswordFieldsRequired),
    new_password: secret(MESSAGES.allPasswordFieldsRequired),
  },
  MESSAGES.allPasswordFieldsRequired,
);
export type PasswordChangeInput = z.output<typeof passwordChangeBody>;
