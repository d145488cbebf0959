import type { ClientConfig } from '@hearth/contracts';
import type { Module } from '../lifecycle/module.js';
import { noQuery } from './validation.js';

/**
 * GET /api/config: the settings the web app needs from the server's configuration (the device
 * stream's topic prefix). Anyone may read it: it holds nothing secret, and the app may need it
 * before anyone signs in. `no-cache`, so a restart with another prefix is seen at once.
 */
export function clientConfigModule(config: ClientConfig): Module {
  const answer: ClientConfig = { devicehub_topic_prefix: config.devicehub_topic_prefix };
  return {
    name: 'client-config',
    register: (app) => {
      app.get('/api/config', { schema: { querystring: noQuery } }, async (_request, reply) => {
        reply.header('cache-control', 'no-cache');
        return answer;
      });
    },
  };
}
