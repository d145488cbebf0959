// The admins' Sources page's calls, wired by devicehub.module.ts.
export { registerSourcesRoutes } from './sources.routes.js';
export { type SourceAdapter, SourcesService } from './sources.service.js';
