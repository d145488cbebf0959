// Builders for the server's and the web app's tests (not part of the wire contract).
import type { Capability } from './devicehub.js';

/** A read-only capability of `kind` on `property`, named after it; `extra` sets the rest. */
export const testCapability = (
  property: string,
  kind: Capability['kind'],
  extra: Partial<Capability> = {},
): Capability => ({
  id: property,
  property,
  name: property,
  kind,
  type: kind,
  value_type: 'number',
  access: { readOnly: true, write: false, set: false },
  ...extra,
});
