import type { Device } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import { deviceChoices } from './activity.devices.js';

const device = (id: string, name: string) => ({ id, name }) as Device;
const HOUSE = [
  device('d1', 'Hallway lamp'),
  device('d2', 'bedroom climate'),
  device('d3', 'Lamp 10'),
  device('d4', 'Lamp 2'),
  device('d5', 'Äpfel fridge'),
  device('d6', 'Living room lamp'),
];
const names = (list: Device[]) => list.map((d) => d.name);

describe('the Device filter of the Activity page (deviceChoices)', () => {
  it.each([
    [
      'no search: every device, by name',
      '',
      '',
      ['Äpfel fridge', 'bedroom climate', 'Hallway lamp', 'Lamp 2', 'Lamp 10', 'Living room lamp'],
    ],
    ['a word, any case', 'LAMP', '', ['Hallway lamp', 'Lamp 2', 'Lamp 10', 'Living room lamp']],
    ['every word must be there', 'room lamp', '', ['Living room lamp']],
    ['the chosen device stays, whatever the search', 'hall', 'd2', ['bedroom climate', 'Hallway lamp']],
    ['nothing matches', 'garage', '', []],
  ])('%s', (_name, search, chosen, expected) => {
    expect(names(deviceChoices(HOUSE, search, chosen))).toEqual(expected);
  });
});
