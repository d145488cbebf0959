import { createHash } from 'node:crypto';
import type { AccessLevel, Role } from '@hearth/contracts';
import { EVERYTHING, type Reach } from '../devicehub/index.js';
import { controlsEverything, levelOf, levelOfRoom, mayViewSomething, type RuleSet } from './access.policy.js';

/** An account's reach: its role and rules, and where the hub's devices are now (docs/access.md#reach). */
export class RuleReach implements Reach {
  readonly everything = false;
  readonly tag: string;
  /** Whether it may view some device (the stream lets it connect). */
  readonly any: boolean;

  constructor(
    private readonly role: Role,
    private readonly rules: RuleSet,
    /** The room a listed device is in now (the hub's own view, which room changes update). */
    private readonly roomOf: (deviceId: string) => string | null | undefined,
  ) {
    this.any = mayViewSomething(role, rules);
    const text = JSON.stringify([role, [...rules.rooms].sort(), [...rules.devices].sort()]);
    this.tag = createHash('sha256').update(text).digest('base64url').slice(0, 16);
  }

  levelOf(deviceId: string): AccessLevel {
    return levelOf(this.role, this.rules, deviceId, this.roomOf(deviceId) ?? null);
  }

  levelOfRoom(roomId: string | null): AccessLevel {
    return levelOfRoom(this.role, this.rules, roomId);
  }
}

/** The reach of an account with these rules: everything on the fast path when nothing narrows it. */
export function reachOf(
  role: Role,
  rules: RuleSet,
  roomOf: (deviceId: string) => string | null | undefined,
): Reach {
  return controlsEverything(role, rules) ? EVERYTHING : new RuleReach(role, rules, roomOf);
}
