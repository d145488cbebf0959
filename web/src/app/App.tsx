import { lazy } from 'react';
import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { HomePage } from '../features/home/HomePage.js';
import { SessionProvider } from '../features/session/SessionProvider.js';
import { MUSIC_PROVIDER } from '../shared/music-provider.js';
import { ToastProvider } from '../shared/toast/ToastProvider.js';
import { Layout } from './Layout.js';
import { MapPage, MusicPage, ProfilePage } from './Placeholder.js';

// Loaded only when visited: the Devices page brings the MQTT client with it.
const DevicesPage = lazy(() => import('../features/devices/DevicesPage.js'));
const UsersPage = lazy(() => import('../features/users/UsersPage.js'));
// docs/history.md#device-history-page: uPlot loads with it.
const DeviceHistoryPage = lazy(() => import('../features/history/DeviceHistoryPage.js'));
// docs/screens.md#access-rules: the rules matrix, under Users.
const AccessPage = lazy(() => import('../features/access/AccessPage.js'));
const ActivityPage = lazy(() => import('../features/activity/ActivityPage.js'));

/** docs/screens.md#routes: the routes; anything else goes to /. */
export function App() {
  return (
    <BrowserRouter>
      <ToastProvider>
        <SessionProvider>
          <Routes>
            <Route element={<Layout />}>
              <Route path="/" element={<HomePage />} />
              <Route path="/devices" element={<DevicesPage />} />
              <Route path="/devices/:id" element={<DeviceHistoryPage />} />
              <Route path="/users" element={<UsersPage />} />
              <Route path="/users/access" element={<AccessPage />} />
              <Route path="/activity" element={<ActivityPage />} />
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
