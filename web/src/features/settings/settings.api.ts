import type { IdentitiesResponse, SessionsResponse } from '@hearth/contracts';
import { api } from '../../shared/api/client.js';

/** docs/api.md#accounts: the account calls the settings overlay makes (wire names). */
export const settingsApi = {
  requestEmailVerification: (userId: string) =>
    api.post('/api/auth/email/verify/request', { user_id: userId }),
  confirmEmail: (userId: string, code: string) =>
    api.post('/api/auth/email/verify/confirm', { user_id: userId, code }),
  setupTwoFactor: (userId: string) => api.post('/api/auth/2fa/email/setup', { user_id: userId }),
  verifyTwoFactor: (userId: string, code: string) =>
    api.post('/api/auth/2fa/email/verify', { user_id: userId, code }),
  /** docs/api.md#two-factor-authentication: turns 2FA off after checking the password. */
  disableTwoFactor: (password: string) => api.post('/api/auth/2fa/disable', { password }),
  updateProfile: (userId: string, firstName: string, lastName: string) =>
    api.patch(`/api/auth/users/${encodeURIComponent(userId)}`, {
      first_name: firstName,
      last_name: lastName,
    }),
  changePassword: (currentPassword: string, newPassword: string) =>
    api.post('/api/auth/password/change', { current_password: currentPassword, new_password: newPassword }),
  sessions: () => api.get<SessionsResponse>('/api/auth/sessions'),
  signOutSession: (id: string) => api.delete(`/api/auth/sessions/${encodeURIComponent(id)}`),
  signOutOthers: () => api.post('/api/auth/sessions/revoke-others'),
  providers: () => api.get<{ providers: { id: string; name: string }[] }>('/api/auth/oauth/providers'),
  identities: () => api.get<IdentitiesResponse>('/api/auth/identities'),
  connect: (provider: string) =>
    api.post<{ url: string }>(`/api/auth/oauth/${encodeURIComponent(provider)}/connect`),
  disconnect: (provider: string) => api.delete(`/api/auth/identities/${encodeURIComponent(provider)}`),
  /** The password again, for a call that needs a recent sign-in (connecting a provider). */
  reauth: (password: string) => api.post('/api/auth/reauth', { password }),
  generateAvatar: () => api.post('/api/auth/profile/generate-avatar', {}),
  uploadPicture: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.post('/api/auth/profile/upload', form);
  },
};
