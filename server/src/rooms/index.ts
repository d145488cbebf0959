// Rooms, floors and favourites as app.ts sees them.
export { type RoomsModuleDeps, roomsModule } from './rooms.module.js';
