import type { AlertSettings, DeviceMute } from '@hearth/contracts';
import type { ReachSource } from '../devicehub/index.js';
import { HttpError } from '../http/errors.js';
import type { UserRecord } from '../users/index.js';
import type { AlertEngine, AlertFeed } from './alerts.engine.js';
import { ALERTS_ERRORS as E } from './alerts.errors.js';
import type { AlertsRepository } from './alerts.repository.js';

type Caller = Pick<UserRecord, 'id' | 'role'>;

/** docs/alerts.md#api: the household's rules (admins change them) and per-device mutes. */
export class AlertsService {
  constructor(
    private readonly engine: AlertEngine,
    private readonly repository: AlertsRepository,
    private readonly feed: Pick<AlertFeed, 'find'>,
    private readonly reach: ReachSource,
  ) {}

  settings(): Promise<AlertSettings> {
    return this.repository.settings();
  }

  async changeSettings(settings: AlertSettings): Promise<AlertSettings> {
    await this.engine.changeSettings(settings);
    return settings;
  }

  /** The muted devices the caller may view. */
  async mutes(caller: Caller): Promise<{ devices: DeviceMute[] }> {
    const reach = await this.reach.reachOf(caller);
    const ids = await this.repository.mutes();
    return {
      devices: ids
        .filter((id) => reach.everything || reach.levelOf(id) !== 'none')
        .map((device_id) => ({ device_id, muted: true })),
    };
  }

  /** "Don't alert for this device": a listed device the caller may view, else 404. */
  async setMuted(caller: Caller, deviceId: string, muted: boolean): Promise<DeviceMute> {
    const reach = await this.reach.reachOf(caller);
    const device = this.feed.find(deviceId);
    if (!device || (!reach.everything && reach.levelOf(deviceId) === 'none')) {
      throw new HttpError(404, E.deviceNotFound);
    }
    await this.engine.setMuted(deviceId, muted, caller.id);
    return { device_id: deviceId, muted };
  }
}
