import { describe, expect, it } from 'vitest';
import { endpointNaming, PROPERTY_NAMES, propertyName } from './property-names.js';

describe('property names people understand (docs/strings.md#property-names)', () => {
  it.each([
    ['occupied_heating_setpoint', 'Occupied heating setpoint', undefined, 'Target temperature'],
    ['pi_heating_demand', 'Pi heating demand', undefined, 'Heating demand'],
    ['pm25', 'Pm25', undefined, 'PM2.5'],
    ['co2', undefined, undefined, 'CO₂'],
    ['linkquality', 'Linkquality', undefined, 'Link quality'],
    ['color_temp', 'Color temp', undefined, 'Color temperature'],
    // Not in the table: the device's own label, else the property humanised.
    ['warning', 'Warning', undefined, 'Warning'],
    ['strength', undefined, undefined, 'Strength'],
    // One endpoint's properties.
    ['state_l1', 'State (l1)', 'l1', 'Channel 1'],
    ['brightness_l2', 'Brightness (l2)', 'l2', 'Brightness (Channel 2)'],
    ['state_left', 'State (left)', 'left', 'Left'],
    ['level_config_l1', 'Level config (l1)', 'l1', 'Level config (Channel 1)'],
    ['state_usb', 'State (usb)', 'usb', 'USB'],
  ])('%s (labelled %s, endpoint %s) reads "%s"', (property, label, endpoint, expected) => {
    expect(propertyName(property, { label, endpoint })).toBe(expected);
  });

  it.each([
    ['Smart light switch - 2 gang', 2, 'l1', 'Channel 1'],
    ['Wall switch, left and right button', 2, 'l1', 'Left'],
    ['Wall switch, left and right button', 2, 'l2', 'Right'],
    // Three endpoints are not left and right, whatever the description says.
    ['Wall switch, left, middle and right', 3, 'l3', 'Channel 3'],
    ['Power strip with 4 sockets and USB', 5, 'l3', 'Socket 3'],
    ['Smart plug with two outlets', 2, 'l2', 'Socket 2'],
    [null, 2, 'ep2', 'Channel 2'],
    [null, 2, 'top', 'Top'],
  ])('endpoints of "%s" (%i endpoints): %s is "%s"', (description, count, endpoint, expected) => {
    expect(endpointNaming(description, count)(endpoint)).toBe(expected);
  });

  it('is kept sorted, so a new name is easy to find', () => {
    const keys = Object.keys(PROPERTY_NAMES);
    expect(keys).toEqual([...keys].sort());
  });
});
