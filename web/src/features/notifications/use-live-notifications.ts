import { useSyncExternalStore } from 'react';
import { type LiveNotifications, notificationsLive } from './notifications-live.js';

/** The bell's count, the banner's incidents and whether the stream is up. */
export const useLiveNotifications = (): LiveNotifications =>
  useSyncExternalStore(notificationsLive.subscribe, notificationsLive.getSnapshot);
