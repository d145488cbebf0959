import { describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import { eventually } from '../../test/wait.js';
import { DevicesRepository } from './devicehub.repository.js';
import { byName, useHousehold } from './devicehub-test-kit.js';

// Issue 32 item 3: PostgreSQL refuses U+0000 in text. A device's state is stored as JSON text,
// which spells it out (\u0000), so a device that reports one is still kept in the registry.
describe.each(testDatabases())('a device state with U+0000 on $name', ({ create }) => {
  const h = useHousehold({ database: create });

  it('is written to the registry as it came, and the device keeps reporting', async () => {
    const lamp = byName(await h.list(), 'Living room/Lamp')!;
    await h.z2m.publish('Living room/Lamp', { state: 'ON\u0000' });
    const registry = new DevicesRepository(h.app.storage.db);
    const stored = await eventually(
      async () => (await registry.all()).find((device) => device.id === lamp.id)?.state,
      (state) => state?.state === 'ON\u0000',
    );
    expect(stored).toMatchObject({ state: 'ON\u0000' });
    await h.z2m.publish('Living room/Lamp', { state: 'OFF' });
    await eventually(
      async () => (await registry.all()).find((device) => device.id === lamp.id)?.state,
      (state) => state?.state === 'OFF',
    );
    expect(h.app.logs.text).not.toContain('device state flush failed');
  });
});
