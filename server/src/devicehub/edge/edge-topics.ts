import { devicehubRoot, devicehubTopic, devicehubTopics, replyTopic } from '@hearth/contracts';
import type { EdgeCommand } from './edge-broker.js';

/**
 * The browser-facing topic space (DESIGN.md "Device hub"): P = `${prefix}/devicehub`; browsers
 * read under P/devices and P/events and write only the two command topics.
 */
export class EdgeTopics {
  readonly root: string;
  private readonly readable: string[];
  /** P/devices/ : a device's state topic is this and its id. */
  private readonly deviceBase: string;
  /** P/replies/ : a client's own reply topic is this and its client id. */
  private readonly replyBase: string;
  private readonly commands: Map<string, EdgeCommand['kind']>;

  constructor(topicPrefix: string) {
    // Built from the contracts' topic names, the ones the web app subscribes and publishes with.
    this.root = devicehubRoot(topicPrefix);
    this.readable = [
      devicehubTopic(topicPrefix, devicehubTopics.device('')),
      devicehubTopic(topicPrefix, devicehubTopics.eventsWildcard.replace(/#$/, '')),
    ];
    this.deviceBase = this.readable[0] as string;
    this.replyBase = `${this.root}/${replyTopic('')}`;
    this.commands = new Map([
      [devicehubTopic(topicPrefix, devicehubTopics.set), 'device.set'],
      [devicehubTopic(topicPrefix, devicehubTopics.rename), 'device.rename'],
    ]);
  }

  /** The absolute topic of a topic relative to P (`devices/<id>`). */
  absolute(relative: string): string {
    if (relative === '' || /[#+]/.test(relative) || relative.startsWith('/')) {
      throw new Error(`invalid edge topic "${relative}"`);
    }
    return `${this.root}/${relative}`;
  }

  /** Whether a browser may subscribe to this filter: only under P/devices/ and P/events/. */
  maySubscribe(filter: string): boolean {
    return this.readable.some((base) => filter.length > base.length && filter.startsWith(base));
  }

  /** Whether a message on this topic may reach a browser. */
  mayDeliver(topic: string): boolean {
    return this.readable.some((base) => topic.startsWith(base));
  }

  /** The device whose state a topic carries (`P/devices/<id>`), else undefined. */
  deviceOf(topic: string): string | undefined {
    return topic.startsWith(this.deviceBase) ? topic.slice(this.deviceBase.length) : undefined;
  }

  /**
   * The absolute reply topic of a client (docs/access.md#stream), or undefined for a client id
   * that can't name a topic (wildcards, levels, nothing).
   */
  replyTopicOf(clientId: string): string | undefined {
    if (clientId === '' || /[#+/]/.test(clientId) || clientId.includes('\u0000')) return undefined;
    return `${this.replyBase}${clientId}`;
  }

  /** The command a browser publishes on this topic, or undefined when it may not publish there. */
  commandFor(topic: string): EdgeCommand['kind'] | undefined {
    return this.commands.get(topic);
  }
}
