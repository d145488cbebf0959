import type { EdgeCommand } from './edge-broker.js';

/**
 * The browser-facing topic space (DESIGN.md "Device hub"): P = `${prefix}/devicehub`; browsers
 * read under P/devices and P/events and write only the two command topics.
 */
export class EdgeTopics {
  readonly root: string;
  private readonly readable: string[];
  private readonly commands: Map<string, EdgeCommand['kind']>;

  constructor(topicPrefix: string) {
    this.root = `${topicPrefix}/devicehub`;
    this.readable = [`${this.root}/devices/`, `${this.root}/events/`];
    this.commands = new Map([
      [`${this.root}/commands/device.set`, 'device.set'],
      [`${this.root}/commands/device.rename`, 'device.rename'],
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

  /** The command a browser publishes on this topic, or undefined when it may not publish there. */
  commandFor(topic: string): EdgeCommand['kind'] | undefined {
    return this.commands.get(topic);
  }
}
