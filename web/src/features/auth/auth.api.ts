import type { ApiError, LockoutError, LoginStartResponse, TokenPair } from '@hearth/contracts';
import { type ApiResult, api } from '../../shared/api/client.js';

type SecondFactor = Extract<LoginStartResponse, { '2fa_required': true }>;

/**
 * docs/api.md#login-start-answer: what login start answers, read field by field, since any of its
 * forms may come: signed in (TokenPair), a second factor wanted, or a LockoutError/ApiError body.
 * The two kinds (`2fa_type`, `reason`) are read as text so an unknown one still shows.
 */
export type LoginStartAnswer = Partial<
  TokenPair &
    ApiError &
    Omit<LockoutError, 'reason'> &
    Omit<SecondFactor, '2fa_required' | '2fa_type'> & {
      '2fa_required': boolean;
      '2fa_type': string;
      reason: string;
    }
>;

export interface SignUpInput {
  firstName: string;
  lastName: string;
  userName: string;
  email: string;
  password: string;
}

export interface OAuthProvider {
  id: string;
  name: string;
}

/** docs/api.md#accounts with the client-side argument names of its notes. */
export const authApi = {
  loginStart: (email: string, password: string) =>
    api.post<LoginStartAnswer>('/api/auth/login/start', { email, password }),
  loginFinish: (userId: string, code: string) =>
    api.post<TokenPair>('/api/auth/login/finish', { user_id: userId, code }),
  requestTwoFactorCode: (userId: string) => api.post('/api/auth/2fa/email/request', { user_id: userId }),
  signUp: (input: SignUpInput): Promise<ApiResult> =>
    api.post('/api/auth/signup', {
      first_name: input.firstName,
      last_name: input.lastName,
      user_name: input.userName,
      email: input.email,
      password: input.password,
    }),
  requestPasswordReset: (email: string) => api.post('/api/auth/password/reset/request', { email }),
  confirmPasswordReset: (email: string, code: string, newPassword: string, keepProviders = false) =>
    api.post('/api/auth/password/reset/confirm', {
      email,
      code,
      new_password: newPassword,
      keep_providers: keepProviders,
    }),
  providers: () => api.get<{ providers?: OAuthProvider[] }>('/api/auth/oauth/providers'),
};

export const providerLoginPath = (id: string) => `/api/auth/oauth/${encodeURIComponent(id)}/login`;
