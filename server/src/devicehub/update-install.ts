import type { Capability, DeviceCommandRequest } from '@hearth/contracts';
import { isObject } from '../shared/json.js';

/**
 * docs/devicehub.md#capability: whether a command sets a firmware update's part (a Home Assistant
 * `update` entity's `install`): only admins may (a resident's answers 403), whatever way it comes.
 */
export function installsUpdate(capabilities: readonly Capability[], request: DeviceCommandRequest): boolean {
  const updates = capabilities.filter((c) => c.type === 'update' && !c.access.readOnly);
  if (updates.length === 0 || !isObject(request)) return false;
  const keys = new Set<unknown>(Object.keys(isObject(request.state) ? request.state : {}));
  if (isObject(request.input)) keys.add(request.input.id);
  return updates.some((c) => keys.has(c.id) || keys.has(c.property));
}
