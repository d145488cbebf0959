import type {
  AlertSettings,
  DeviceMute,
  NotificationPage,
  NotificationPreferences,
  NotificationView,
  PushKey,
  PushSubscriptionBody,
} from '@hearth/contracts';
import { api, getAccessToken } from '../../shared/api/client.js';

const authHeader = (): Record<string, string> => {
  const token = getAccessToken();
  return token ? { authorization: `Bearer ${token}` } : {};
};

/** docs/alerts.md#api: the inbox, preferences, alert rules, mutes and push subscriptions. */
export const notificationsApi = {
  list: (query: { status?: string; kind?: string; room_id?: string; cursor?: string }) =>
    api.get<NotificationPage>('/api/notifications', query),
  read: (id: string) => api.post<NotificationView>(`/api/notifications/${encodeURIComponent(id)}/read`),
  readAll: () => api.post<{ unread: number }>('/api/notifications/read-all'),
  acknowledge: (id: string) =>
    api.post<NotificationView>(`/api/notifications/${encodeURIComponent(id)}/acknowledge`),
  preferences: () => api.get<NotificationPreferences>('/api/notifications/preferences'),
  savePreferences: (preferences: NotificationPreferences) =>
    api.put<NotificationPreferences>('/api/notifications/preferences', preferences),
  alertSettings: () => api.get<AlertSettings>('/api/alerts/settings'),
  saveAlertSettings: (settings: AlertSettings) => api.put<AlertSettings>('/api/alerts/settings', settings),
  mutes: () => api.get<{ devices: DeviceMute[] }>('/api/alerts/devices'),
  setMuted: (deviceId: string, muted: boolean) =>
    api.put<DeviceMute>(`/api/alerts/devices/${encodeURIComponent(deviceId)}`, { muted }),
  pushKey: () => api.get<PushKey>('/api/push/key'),
  subscribe: (subscription: PushSubscriptionBody) => api.post('/api/push/subscriptions', subscription),
  unsubscribe: (endpoint: string) =>
    fetch('/api/push/subscriptions', {
      method: 'DELETE',
      headers: { 'content-type': 'application/json', ...authHeader() },
      body: JSON.stringify({ endpoint }),
    }),
};
