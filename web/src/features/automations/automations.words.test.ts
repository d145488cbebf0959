import { describe, expect, it } from 'vitest';
import {
  actionWords,
  conditionWords,
  days,
  duration,
  ruleWords,
  stateWords,
  triggerWords,
} from './automations.words.js';

const names = {
  device: (id: string) =>
    ({ motion: 'Hall motion sensor', lamp: 'Hall lamp', bath: 'Bathroom sensor' })[id] ?? id,
  scene: () => 'Movie',
  automation: () => 'Night',
  person: () => 'Ada',
};

describe('automations in plain words', () => {
  it.each([
    [30, '30 s'],
    [120, '2 min'],
    [90, '1 min 30 s'],
    [3600, '1 h'],
    [5400, '1 h 30 min'],
  ])('%i seconds read %s', (seconds, words) => expect(duration(seconds)).toBe(words));

  it.each([
    [[1, 2, 3, 4, 5], 'on weekdays'],
    [[6, 7], 'at weekends'],
    [[], 'every day'],
    [[1, 3], 'on Mon, Wed'],
  ])('weekdays %j read %s', (list, words) => expect(days(list)).toBe(words));

  it('says the issue’s example as the issue does', () => {
    expect(
      ruleWords(
        {
          triggers: [{ type: 'state', device_id: 'motion', property: 'occupancy', to: true }],
          conditions: [{ type: 'sun', is: 'down' }],
          actions: [
            { type: 'device', device_id: 'lamp', state: { on: true, brightness: 102 } },
            { type: 'wait', seconds: 120 },
            { type: 'device', device_id: 'lamp', state: { on: false } },
          ],
        },
        names,
      ),
    ).toBe(
      'When the Hall motion sensor occupancy becomes true — If the sun is down — Then set the Hall lamp to on, 40 %, wait 2 min, set the Hall lamp to off',
    );
  });

  it.each([
    [{ type: 'time', at: '07:30', weekdays: [1, 2, 3, 4, 5] }, 'it is 07:30 on weekdays'],
    [{ type: 'sun', event: 'sunset', offset_minutes: -15 }, 'it is 15 min before sunset'],
    [
      { type: 'state', device_id: 'bath', property: 'humidity', above: 70, for_seconds: 300 },
      'the Bathroom sensor humidity rises above 70 for 5 min',
    ],
    [{ type: 'availability', device_id: 'lamp', online: false }, 'the Hall lamp goes offline'],
    [{ type: 'cron', expression: '0 7 * * 1-5' }, 'the schedule “0 7 * * 1-5” says so'],
  ] as const)('trigger %j', (trigger, words) => expect(triggerWords(trigger as never, names)).toBe(words));

  it('conditions and actions', () => {
    expect(conditionWords({ type: 'time', after: '22:00', before: '06:00' }, names)).toBe(
      'it is between 22:00 and 06:00',
    );
    expect(
      conditionWords({ type: 'state', device_id: 'bath', property: 'temperature', above: 20 }, names),
    ).toBe('the Bathroom sensor temperature is above 20');
    expect(actionWords({ type: 'notify', to: 'household', title: 'Fan on', body: '' }, names)).toBe(
      'tell everyone: “Fan on”',
    );
    expect(actionWords({ type: 'automation', automation_id: 'x', enabled: false }, names)).toBe(
      'switch off Night',
    );
    expect(stateWords({ state: 'ON' })).toBe('on');
  });
});
