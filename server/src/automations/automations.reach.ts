import type { AutomationAction, Scene } from '@hearth/contracts';
import type { Sight } from '../scenes/index.js';
import { seesScene } from '../scenes/index.js';
import type { AutomationRecord } from './automations.repository.js';

/**
 * docs/automations.md#who: what an automation names and what it acts on, for the rule that nobody
 * learns of, nor hands out through, an automation more than their own reach.
 */

type Rule = Pick<AutomationRecord, 'triggers' | 'conditions' | 'actions'>;

/** Where the automations and scenes an automation names are read (undefined: gone). */
export interface RuleLookups {
  automation(id: string): Promise<AutomationRecord | undefined>;
  scene(id: string): Promise<Scene | undefined>;
}

/** The devices a rule names itself (its triggers, conditions and device actions), each once, in order. */
export function namedDevices(rule: Rule): string[] {
  const ids = new Set<string>();
  for (const trigger of rule.triggers)
    if (trigger.type === 'state' || trigger.type === 'event' || trigger.type === 'availability')
      ids.add(trigger.device_id);
  for (const condition of rule.conditions) if (condition.type === 'state') ids.add(condition.device_id);
  for (const action of rule.actions) if (action.type === 'device') ids.add(action.device_id);
  return [...ids];
}

const ofType = <T extends AutomationAction['type']>(actions: readonly AutomationAction[], type: T) =>
  actions.filter((action): action is Extract<AutomationAction, { type: T }> => action.type === type);

/**
 * Whether a viewer sees the automation: every device it names, every scene it applies (its room
 * and devices) and every automation it switches (the same, all the way down). A scene or an
 * automation that is gone hides nothing.
 */
export async function seesAutomation(rule: Rule, sees: Sight, lookups: RuleLookups): Promise<boolean> {
  const visited = new Set<string>();
  const sees_ = async (each: Rule): Promise<boolean> => {
    if (!namedDevices(each).every((id) => sees.device(id))) return false;
    for (const action of ofType(each.actions, 'scene')) {
      const scene = await lookups.scene(action.scene_id);
      if (scene && !seesScene(scene, sees)) return false;
    }
    for (const action of ofType(each.actions, 'automation')) {
      if (visited.has(action.automation_id)) continue;
      visited.add(action.automation_id);
      const other = await lookups.automation(action.automation_id);
      if (other && !(await sees_(other))) return false;
    }
    return true;
  };
  return sees_(rule);
}

/**
 * The devices the automation's actions would command when it runs: its device actions, its
 * scenes' targets, and what the automations it switches on act on, all the way down.
 */
export async function actsOn(rule: Pick<Rule, 'actions'>, lookups: RuleLookups): Promise<string[]> {
  const devices = new Set<string>();
  const visited = new Set<string>();
  const walk = async (actions: readonly AutomationAction[]) => {
    for (const action of ofType(actions, 'device')) devices.add(action.device_id);
    for (const action of ofType(actions, 'scene'))
      for (const target of (await lookups.scene(action.scene_id))?.targets ?? [])
        devices.add(target.device_id);
    for (const action of ofType(actions, 'automation')) {
      if (!action.enabled || visited.has(action.automation_id)) continue;
      visited.add(action.automation_id);
      const other = await lookups.automation(action.automation_id);
      if (other) await walk(other.actions);
    }
  };
  await walk(rule.actions);
  return [...devices];
}
