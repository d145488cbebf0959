import type { Capability } from '@hearth/contracts';
import { testCapability } from '@hearth/contracts/testing';
import { describe, expect, it } from 'vitest';
import { Confirmation, expectationsOf } from './command-confirmation.js';

const writable = { readOnly: false, write: true, set: true };
const cap = ({ property, kind, ...extra }: Partial<Capability> & Pick<Capability, 'property' | 'kind'>) =>
  testCapability(property, kind, { access: writable, ...extra });

const lamp = [
  cap({ property: 'state', kind: 'binary', type: 'light', metadata: { value_on: 'ON', value_off: 'OFF' } }),
  cap({ property: 'brightness', kind: 'numeric', type: 'light', range: { min: 0, max: 254 } }),
  cap({ property: 'color_temp', kind: 'numeric', type: 'light', range: { min: 150, max: 500 } }),
  cap({ property: 'effect', kind: 'enum', enum: ['blink', 'okay'] }),
  cap({ property: 'color', kind: 'composite', type: 'light' }),
  cap({ property: 'linkquality', kind: 'numeric', access: { readOnly: true, write: false, set: false } }),
];
const twoGang = [
  cap({ id: 'state_l1', property: 'state_l1', kind: 'binary', type: 'switch', metadata: { endpoint: 'l1' } }),
  cap({ id: 'state_l2', property: 'state_l2', kind: 'binary', type: 'switch', metadata: { endpoint: 'l2' } }),
];
const lock = [
  cap({
    property: 'state',
    kind: 'binary',
    type: 'lock',
    metadata: { value_on: 'LOCK', value_off: 'UNLOCK' },
  }),
];
/** A Home Assistant light: one composite whose `state` part is its power. */
const haLight = [
  cap({
    property: 'kitchen',
    kind: 'composite',
    type: 'light',
    features: [
      cap({ property: 'state', kind: 'binary', metadata: { value_on: 'ON', value_off: 'OFF' } }),
      cap({ property: 'brightness', kind: 'numeric' }),
    ],
  }),
];

/** Whether these reports, in order, confirm the command. */
const confirms = (capabilities: Capability[], sent: Record<string, unknown>, ...reports: object[]) => {
  const confirmation = new Confirmation(expectationsOf(capabilities, sent));
  for (const report of reports) confirmation.report(report as Record<string, unknown>);
  return confirmation.done;
};

describe('a command counts as done only when the state says what was asked', () => {
  it.each([
    ['off, echoed off', lamp, { on: false }, [{ state: 'OFF', brightness: 10 }], true],
    ['off, the device stays on', lamp, { on: false }, [{ state: 'ON' }], false],
    ['off, nothing heard', lamp, { on: false }, [], false],
    [
      'brightness within the step',
      lamp,
      { brightness: 128, on: true },
      [{ state: 'ON', brightness: 127 }],
      true,
    ],
    ['brightness far off', lamp, { brightness: 128, on: true }, [{ state: 'ON', brightness: 40 }], false],
    ['brightness set, power not yet', lamp, { brightness: 128, on: true }, [{ brightness: 128 }], false],
    [
      'power and brightness in two reports',
      lamp,
      { brightness: 128, on: true },
      [{ brightness: 128 }, { state: 'ON' }],
      true,
    ],
    ['an effect, in any case', lamp, { effect: 'okay' }, [{ effect: 'OKAY' }], true],
    [
      'a colour: reported again',
      lamp,
      { color: '#FF8800', on: true },
      [{ color: { x: 0.5, y: 0.4 }, state: 'ON' }],
      true,
    ],
    [
      'a key the device does not take expects nothing',
      lamp,
      { on: true, bogus: 1, linkquality: 3 },
      [{ state: 'ON' }],
      true,
    ],
    [
      "a gang's own endpoint",
      twoGang,
      { state_l2: false, on: false },
      [{ state_l1: 'ON', state_l2: 'OFF' }],
      true,
    ],
    ['the other gang does not count', twoGang, { state_l2: false }, [{ state_l1: 'OFF' }], false],
    ['a lock in its own words', lock, { on: false }, [{ state: 'UNLOCK' }], true],
    ['a lock still locked', lock, { on: false }, [{ state: 'LOCK' }], false],
    [
      "a Home Assistant light's power part",
      haLight,
      { on: false },
      [{ kitchen: { state: 'OFF', brightness: 0 } }],
      true,
    ],
    ['a Home Assistant light still on', haLight, { on: false }, [{ kitchen: { state: 'ON' } }], false],
    ['nothing to check: done at the first report', lamp, { bogus: 1 }, [{ linkquality: 90 }], true],
    ['nothing to check, nothing heard', lamp, { bogus: 1 }, [], false],
  ] as const)('%s', (_, capabilities, sent, reports, done) => {
    expect(confirms(capabilities as Capability[], sent, ...reports)).toBe(done);
  });
});
