import { deviceIconKind } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import type { CapabilityReading } from './device.types.js';

const device = (fields: {
  capabilities?: CapabilityReading[];
  type?: string;
  description?: string;
  model?: string;
  name?: string;
  manufacturer?: string;
}) => ({
  capabilities: fields.capabilities ?? [],
  type: fields.type ?? null,
  description: fields.description ?? null,
  model: fields.model ?? null,
  name: fields.name ?? null,
  manufacturer: fields.manufacturer ?? null,
});

describe('deviceIconKind (docs/screens.md#devices-page, rules in order)', () => {
  it.each([
    [{ name: 'Front door' }, 'door'],
    [{ capabilities: [{ property: 'contact' }] }, 'door'],
    [{ type: 'Light' }, 'light'],
    [{ name: 'Desk lamp' }, 'light'],
    [{ capabilities: [{ property: 'brightness' }] }, 'light'],
    [{ capabilities: [{ id: 'color_xy' }] }, 'light'],
    [{ name: 'Smart plug' }, 'plug'],
    [{ description: 'Wall socket' }, 'plug'],
    [{ model: 'OUTLET-1' }, 'plug'],
    [{ capabilities: [{ property: 'power' }] }, 'plug'],
    [{ name: 'Thermostat' }, 'thermometer'],
    [{ description: 'Heating valve' }, 'thermometer'],
    [{ capabilities: [{ name: 'Temperature' }] }, 'thermometer'],
    [{ capabilities: [{ property: 'humidity' }] }, 'humidity'],
    [{ capabilities: [{ property: 'battery' }] }, 'battery'],
    [{ capabilities: [{ property: 'voltage' }] }, 'voltage'],
    [{ name: 'Mystery box', manufacturer: 'ACME' }, 'device'],
    [{}, 'device'],
    // order: a door sensor that also reports temperature and battery is a door
    [
      { capabilities: [{ property: 'battery' }, { property: 'temperature' }, { property: 'contact' }] },
      'door',
    ],
    // a light with a power meter is a light (rule 2 before rule 3)
    [{ capabilities: [{ property: 'power' }, { property: 'brightness' }] }, 'light'],
    // plug before thermometer
    [{ capabilities: [{ property: 'temperature' }], name: 'Heater plug' }, 'plug'],
    // humidity before battery
    [{ capabilities: [{ property: 'battery' }, { property: 'humidity' }] }, 'humidity'],
    // battery before voltage
    [{ capabilities: [{ property: 'voltage' }, { property: 'battery' }] }, 'battery'],
    [{ manufacturer: 'LIGHTIFY' }, 'light'],
  ] as const)('%j → %s', (fields, expected) => {
    expect(deviceIconKind(device(fields as Parameters<typeof device>[0]))).toBe(expected);
  });
});
