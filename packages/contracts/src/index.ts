/**
 * Shapes and names that both the server and the web app use. Declared once here; neither side
 * re-declares them.
 */
export * from './access.js';
export * from './activity.js';
export * from './auth.js';
export * from './automations.js';
export * from './client-config.js';
export * from './device-icons.js';
export * from './devicehub.js';
export * from './history.js';
export * from './notifications.js';
export * from './passes.js';
export * from './roles.js';
export * from './rooms.js';
export * from './scenes.js';
export * from './sources.js';
export * from './tokens.js';
