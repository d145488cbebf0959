// Rooms, floors and favourites as app.ts sees them.
export { type RoomsModule, type RoomsModuleDeps, roomsModule } from './rooms.module.js';
export type { RoomRules } from './rooms.service.js';
export type { Sight } from './rooms.sight.js';
