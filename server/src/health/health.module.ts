import type { Module } from '../lifecycle/module.js';
import { type HealthCheck, type HealthDetails, registerHealthRoutes } from './health.routes.js';

/** GET /healthz over the given checks (the root adds database, bus, HTTP and each module's `ready`). */
export function healthModule(checks: () => readonly HealthCheck[], details?: HealthDetails): Module {
  return {
    name: 'health',
    register: (app) => registerHealthRoutes(app, checks(), details),
  };
}
