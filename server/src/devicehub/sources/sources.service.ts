import {
  type Device,
  type RejectedSourceMessage,
  SOURCE_NAMES,
  SOURCE_PROTOCOLS,
  type SourceProtocol,
  type SourceStatus,
} from '@hearth/contracts';
import { HttpError } from '../../http/errors.js';
import { SOURCES_ERRORS as E } from './sources.errors.js';

/** What the Sources page reads of a running adapter (docs/devicehub.md: the adapters' `rejected()` and `forget(topic)`). */
export interface SourceAdapter {
  readonly protocol: string;
  rejected?(): readonly { topic: string; reason: string; at: string }[];
  forget?(topic: string): Promise<boolean>;
}

export interface SourcesDeps {
  /** The running adapters (a source configured off has none). */
  adapters: readonly SourceAdapter[];
  /** The topics each source reads; undefined: configured off. */
  topics: Readonly<Record<SourceProtocol, readonly string[] | undefined>>;
  /** The devices the hub lists now. */
  devices(): readonly Pick<Device, 'protocol' | 'last_seen'>[];
}

/**
 * The retained topic that "Forget" clears for a refused message of a source: Home Assistant's and
 * Tasmota's discovery topics themselves, a Shelly device's `<prefix>/online` for any of its topics.
 */
export function forgetTopicOf(protocol: SourceProtocol, topic: string): string | null {
  switch (protocol) {
    case 'homeassistant':
      return topic.endsWith('/config') ? topic : null;
    case 'tasmota':
      return /\/(config|sensors)$/.test(topic) ? topic : null;
    case 'shelly': {
      const prefix = /^(.+?)\/(online|events\/rpc|status\/[^/]+)$/.exec(topic)?.[1];
      return prefix ? `${prefix}/online` : null;
    }
    case 'zigbee':
      return null;
  }
}

/**
 * docs/devicehub.md#sources: each source on or off (as configured), its devices, when one was
 * last heard, what it refused, and Forget for a retained config nobody removes any more.
 */
export class SourcesService {
  /** Topics forgotten, and when: what was refused on them before is not shown again. */
  private readonly forgotten = new Map<string, number>();

  constructor(private readonly deps: SourcesDeps) {}

  list(): SourceStatus[] {
    const counts = new Map<string, { devices: number; last: string | null }>();
    for (const device of this.deps.devices()) {
      const seen = counts.get(device.protocol) ?? { devices: 0, last: null };
      seen.devices++;
      if (device.last_seen && (!seen.last || Date.parse(device.last_seen) > Date.parse(seen.last)))
        seen.last = device.last_seen;
      counts.set(device.protocol, seen);
    }
    return SOURCE_PROTOCOLS.map((protocol) => {
      const adapter = this.adapterOf(protocol);
      const topics = this.deps.topics[protocol];
      const seen = counts.get(protocol);
      return {
        protocol,
        name: SOURCE_NAMES[protocol],
        enabled: topics !== undefined,
        topics: [...(topics ?? [])],
        devices: seen?.devices ?? 0,
        last_message: seen?.last ?? null,
        rejected: this.rejected(protocol, adapter),
        forgets: typeof adapter?.forget === 'function',
      };
    });
  }

  /** Clears a retained topic of the source on the bus (an empty retained message). */
  async forget(
    protocol: SourceProtocol,
    topic: string,
  ): Promise<{ protocol: SourceProtocol; topic: string }> {
    if (this.deps.topics[protocol] === undefined) throw new HttpError(409, E.sourceOff);
    const adapter = this.adapterOf(protocol);
    if (!adapter?.forget) throw new HttpError(400, E.forgetsNothing);
    if (!(await adapter.forget(topic))) throw new HttpError(400, E.notForgettable);
    this.forgotten.set(topic, Date.now());
    return { protocol, topic };
  }

  private adapterOf(protocol: SourceProtocol): SourceAdapter | undefined {
    return this.deps.adapters.find((adapter) => adapter.protocol === protocol);
  }

  private rejected(protocol: SourceProtocol, adapter: SourceAdapter | undefined): RejectedSourceMessage[] {
    const refused = adapter?.rejected?.() ?? [];
    return refused.flatMap((message) => {
      const forget = forgetTopicOf(protocol, message.topic);
      const cleared = this.forgotten.get(forget ?? message.topic);
      // Refused before its topic was forgotten: gone from the bus, so gone from the page.
      if (cleared !== undefined && Date.parse(message.at) <= cleared) return [];
      return [{ topic: message.topic, reason: message.reason, at: message.at, forget }];
    });
  }
}
