import { loadable } from '../../shared/ui/loadable.js';

// docs/screens.md#favourites-and-rooms: only residents and admins load it (it brings the device
// hub). Its own module, so the boot (app/boot-requests.ts) can start it before the home page runs.
export const HomeLive = loadable(() => import('./live/HomeLive.js'));
