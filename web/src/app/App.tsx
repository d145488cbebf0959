import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { HomePage } from '../features/home/HomePage.js';
import { SessionProvider } from '../features/session/SessionProvider.js';
import { MUSIC_PROVIDER } from '../shared/music-provider.js';
import { ToastProvider } from '../shared/toast/ToastProvider.js';
import { Layout } from './Layout.js';
import { MapPage, MusicPage, ProfilePage } from './Placeholder.js';
import {
  AccessPage,
  ActivityPage,
  AutomationsPage,
  DeviceHistoryPage,
  DevicesPage,
  InboxPage,
  PassesPage,
  PassPage,
  SourcesPage,
  UsersPage,
} from './pages.js';

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
              <Route path="/devices/sources" element={<SourcesPage />} />
              <Route path="/devices/:id" element={<DeviceHistoryPage />} />
              <Route path="/users" element={<UsersPage />} />
              <Route path="/users/access" element={<AccessPage />} />
              <Route path="/activity" element={<ActivityPage />} />
              <Route path="/notifications" element={<InboxPage />} />
              <Route path="/passes" element={<PassesPage />} />
              <Route path="/automations" element={<AutomationsPage />} />
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
