import type { ClientConfig } from '@hearth/contracts';
import { api } from './client.js';

let asked: Promise<ClientConfig> | null = null;

/**
 * GET /api/config: the server's settings the web app follows (the device stream's topic
 * prefix). Asked once per page load; a failure is not kept, so the next call asks again.
 */
export function loadClientConfig(): Promise<ClientConfig> {
  asked ??= api.get<ClientConfig>('/api/config').then((result) => {
    if (result.success && typeof result.data?.devicehub_topic_prefix === 'string') return result.data;
    asked = null;
    throw new Error(result.error ?? 'GET /api/config failed');
  });
  return asked;
}
