import { describe, expect, it } from 'vitest';
import { deviceMetrics, formatMetricValue } from './metrics.js';
import { deviceFrom } from './test-devices.js';

describe('metrics (docs/strings.md#constants-and-limits)', () => {
  it('lists numeric capabilities first, then known metrics, with units and rounding', () => {
    const device = deviceFrom({
      id: 'sensor',
      state: {
        temperature: 21.456,
        humidity: 48,
        battery: 97,
        linkquality: 120,
        contact: true,
        battery_low: false,
        pressure: 1013.251,
      },
      capabilities: [
        { property: 'pressure', kind: 'numeric', unit: 'hPa', name: 'Pressure' },
        { property: 'temperature', kind: 'numeric' },
      ],
    });
    expect(deviceMetrics(device).map((m) => `${m.label}=${m.value}${m.unit}`)).toEqual([
      'Pressure=1013.25hPa',
      'Temperature=21.46°C',
      'Humidity=48%',
      'Battery=97%',
      'Linkquality=120',
      'Contact=Closed',
      'Battery low=OK',
    ]);
  });

  it.each([
    ['temperature', 20, '20'],
    ['temperature', 20.005, '20.01'],
    ['contact', false, 'Open'],
    ['contact', 'closed', 'Closed'],
    ['mode', 'eco', 'eco'],
    ['mode', '', null],
    ['mode', null, null],
  ])('%s %j → %j', (property, value, expected) => {
    expect(formatMetricValue(property, value)).toBe(expected);
  });
});
