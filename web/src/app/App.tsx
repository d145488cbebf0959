import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { HomePage } from '../features/home/HomePage.js';
import { SessionProvider } from '../features/session/SessionProvider.js';
import { MUSIC_PROVIDER } from '../shared/music-provider.js';
import { ToastProvider } from '../shared/toast/ToastProvider.js';
import { loadable } from '../shared/ui/loadable.js';
import { Layout } from './Layout.js';
import { MapPage, MusicPage, ProfilePage } from './Placeholder.js';

const pageLoading = <div className="page-loading" aria-busy="true" />;
// Loaded only when visited: the Devices page brings the MQTT client with it.
const DevicesPage = loadable(() => import('../features/devices/DevicesPage.js'), pageLoading);
const UsersPage = loadable(() => import('../features/users/UsersPage.js'), pageLoading);
// docs/history.md#device-history-page: uPlot loads with it.
const DeviceHistoryPage = loadable(() => import('../features/history/DeviceHistoryPage.js'), pageLoading);
const ActivityPage = loadable(() => import('../features/activity/ActivityPage.js'), pageLoading);
// docs/passes.md#pages: the managers' page, and the guest's page (no app shell).
const PassesPage = loadable(() => import('../features/passes/PassesPage.js'), pageLoading);
const PassPage = loadable(() => import('../features/passes/PassPage.js'), pageLoading);
// docs/screens.md#access-rules: the rules matrix, under Users.
const AccessPage = loadable(() => import('../features/access/AccessPage.js'), pageLoading);

/** docs/screens.md#routes: the routes; anything else goes to /. */
export function App() {
  return (
    <BrowserRouter>
      <ToastProvider>
        <SessionProvider>
          <Routes>
            <Route path="/pass/:token" element={<PassPage />} />
            <Route element={<Layout />}>
              <Route path="/" element={<HomePage />} />
              <Route path="/devices" element={<DevicesPage />} />
              <Route path="/devices/:id" element={<DeviceHistoryPage />} />
              <Route path="/users" element={<UsersPage />} />
              <Route path="/users/access" element={<AccessPage />} />
              <Route path="/activity" element={<ActivityPage />} />
              <Route path="/passes" element={<PassesPage />} />
              <Route path="/profile" element={<ProfilePage />} />
              <Route path="/map" element={<MapPage />} />
              <Route path={MUSIC_PROVIDER.path} element={<MusicPage />} />
              <Route path="*" element={<Navigate to="/" replace />} />
            </Route>
          </Routes>
        </SessionProvider>
      </ToastProvider>
    </BrowserRouter>
  );
}
