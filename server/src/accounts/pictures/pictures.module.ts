import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Module } from '../../lifecycle/module.js';
import type { Database } from '../../storage/schema.js';
import type { Guards, UsersRepository } from '../../users/index.js';
import { ImageJobs } from './image-jobs.js';
import { PictureStore } from './picture-store.js';
import { PicturesRepository } from './pictures.repository.js';
import { registerPicturesRoutes } from './pictures.routes.js';
import { PicturesService } from './pictures.service.js';

export interface PicturesModuleDeps {
  db: Kysely<Database>;
  dataDir: string;
  log: Logger;
  users: UsersRepository;
  guards: Guards;
}

/** Profile pictures: generated avatars, uploads and serving them. */
export function picturesModule(deps: PicturesModuleDeps): Module {
  const service = new PicturesService({
    users: deps.users,
    repository: new PicturesRepository(deps.db),
    store: new PictureStore(deps.dataDir),
    jobs: new ImageJobs(),
    log: deps.log,
  });
  return {
    name: 'pictures',
    register: (app) => registerPicturesRoutes(app, deps.guards, service),
    async start() {
      const moved = await service.importLegacyFiles();
      if (moved.removed > 0) deps.log.info(moved, 'profile picture files moved into the database');
    },
  };
}
