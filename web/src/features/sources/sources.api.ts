import type { SourceProtocol, SourceStatus } from '@hearth/contracts';
import { api } from '../../shared/api/client.js';

/** docs/api.md#sources: the admins' Sources page's calls. */
export const sourcesApi = {
  list: () => api.get<SourceStatus[]>('/api/devicehub/sources'),
  forget: (protocol: SourceProtocol, topic: string) =>
    api.post<{ protocol: SourceProtocol; topic: string }>(
      `/api/devicehub/sources/${encodeURIComponent(protocol)}/forget`,
      { topic },
    ),
};
