/**
 * Shapes and names that both the server and the web app use. Declared once here; neither side
 * re-declares them.
 */
export * from './roles.js';
