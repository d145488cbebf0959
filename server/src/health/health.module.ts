import type { Module } from '../lifecycle/module.js';
import { type HealthCheck, registerHealthRoutes } from './health.routes.js';

/** GET /healthz over the given checks (the root adds database, bus, HTTP and each module's `ready`). */
export function healthModule(checks: () => readonly HealthCheck[]): Module {
  return {
    name: 'health',
    register: (app) => registerHealthRoutes(app, checks()),
  };
}
