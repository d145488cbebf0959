import { lazy, Suspense } from 'react';
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
const ActivityPage = lazy(() => import('../features/activity/ActivityPage.js'));
// docs/passes.md#pages: the managers' page, and the guest's page (no app shell).
const PassesPage = lazy(() => import('../features/passes/PassesPage.js'));
const PassPage = lazy(() => import('../features/passes/PassPage.js'));

/** docs/screens.md#routes: the routes; anything else goes to /. */
export function App() {
  return (
    <BrowserRouter>
      <ToastProvider>
        <SessionProvider>
          <Routes>
            <Route
              path="/pass/:token"
              element={
                <Suspense fallback={<div className="page-loading" aria-busy="true" />}>
                  <PassPage />
                </Suspense>
              }
            />
            <Route element={<Layout />}>
              <Route path="/" element={<HomePage />} />
              <Route path="/devices" element={<DevicesPage />} />
              <Route path="/devices/:id" element={<DeviceHistoryPage />} />
              <Route path="/users" element={<UsersPage />} />
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
