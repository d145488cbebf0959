/** The pages loaded only when visited (docs/screens.md#routes), and what a sidebar entry may fetch ahead. */
import { loadable } from '../shared/ui/loadable.js';

const pageLoading = <div className="page-loading" aria-busy="true" />;
// Loaded only when visited: the Devices page brings the MQTT client with it.
export const DevicesPage = loadable(() => import('../features/devices/DevicesPage.js'), pageLoading);
export const UsersPage = loadable(() => import('../features/users/UsersPage.js'), pageLoading);
// docs/history.md#device-history-page: uPlot loads with it.
export const DeviceHistoryPage = loadable(
  () => import('../features/history/DeviceHistoryPage.js'),
  pageLoading,
);
export const ActivityPage = loadable(() => import('../features/activity/ActivityPage.js'), pageLoading);
// docs/passes.md#pages: the managers' page, and the guest's page (no app shell).
export const PassesPage = loadable(() => import('../features/passes/PassesPage.js'), pageLoading);
export const PassPage = loadable(() => import('../features/passes/PassPage.js'), pageLoading);
// docs/screens.md#access-rules: the rules matrix, under Users.
export const AccessPage = loadable(() => import('../features/access/AccessPage.js'), pageLoading);
// docs/alerts.md#in-the-app: the notification inbox.
export const InboxPage = loadable(() => import('../features/notifications/InboxPage.js'), pageLoading);
// docs/automations.md#page: the list, the builder and the trace view.
export const AutomationsPage = loadable(
  () => import('../features/automations/AutomationsPage.js'),
  pageLoading,
);

// docs/screens.md#sources: the admins' Sources page, under Devices.
export const SourcesPage = loadable(() => import('../features/sources/SourcesPage.js'), pageLoading);

/** The page a sidebar entry opens, whose code can be fetched ahead (on hover or focus). */
export const PAGE_AT: Record<string, { preload(): Promise<unknown> }> = {
  '/devices': DevicesPage,
  '/users': UsersPage,
  '/activity': ActivityPage,
  '/passes': PassesPage,
  '/automations': AutomationsPage,
  '/notifications': InboxPage,
};
