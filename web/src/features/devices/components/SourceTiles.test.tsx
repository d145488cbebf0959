import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Json } from '../model/device.types.js';
import { type SourceDevice, sourceRaw } from '../model/source-devices.js';
import { testHub } from '../test-hub.js';
import { DeviceTile } from './DeviceTile.js';
import { DevicesContext } from './devices-context.js';

// docs/screens.md#devices-of-other-sources: the tiles of Home Assistant discovery, Tasmota and
// Shelly devices: their controls, readings, badge and failures.

afterEach(cleanup);

function setup(name: SourceDevice, change: Json = {}, { admin = false }: { admin?: boolean } = {}) {
  const raw = sourceRaw(name, change);
  const { store, actions } = testHub([raw]);
  render(
    <DevicesContext.Provider value={{ store, actions, admin }}>
      <DeviceTile deviceKey={String(raw.id)} />
    </DevicesContext.Provider>,
  );
  const tile = screen.getByRole('article', { name: String(raw.name) });
  return { store, actions, tile, sent: () => actions.send.mock.calls.map((call) => (call as unknown[])[1]) };
}

/**
 * What a keyboard's Tab reaches on the tile for its power, controls and menu (docs/screens.md#the-tiles-menu);
 * a long list of readings adds its "Show N more", as on any tile.
 */
const tabStops = (tile: HTMLElement) =>
  Array.from(tile.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea')).filter(
    (element) =>
      !(element as HTMLButtonElement).disabled &&
      !element.closest('[hidden]') &&
      !element.closest('.tile-metrics'),
  ).length;

describe('tiles of other sources', () => {
  it('names the source on its badge', () => {
    expect(within(setup('thermostat').tile).getByText('Home Assistant')).toBeTruthy();
    cleanup();
    expect(within(setup('dimmer').tile).getByText('Tasmota')).toBeTruthy();
    cleanup();
    expect(within(setup('shutter').tile).getByText('Shelly')).toBeTruthy();
  });

  it("sets a climate's mode, target temperature and preset inside the climate, and reads its current temperature", () => {
    const { tile, sent } = setup('thermostat');
    fireEvent.change(within(tile).getByRole('combobox', { name: 'Mode' }), { target: { value: 'cool' } });
    fireEvent.change(within(tile).getByRole('combobox', { name: 'Preset' }), { target: { value: 'away' } });
    const target = within(tile).getByRole('slider', { name: /^Target temperature/ });
    expect(target.getAttribute('aria-valuetext')).toBe('21 °C');
    fireEvent.change(target, { target: { value: '22.5' } });
    fireEvent.blur(target);
    expect(sent()).toEqual([
      { input: { id: 'thermostat', value: { mode: 'cool' } }, state: { thermostat: { mode: 'cool' } } },
      {
        input: { id: 'thermostat', value: { preset_mode: 'away' } },
        state: { thermostat: { preset_mode: 'away' } },
      },
      {
        input: { id: 'thermostat', value: { target_temperature: 22.5 } },
        state: { thermostat: { target_temperature: 22.5 } },
      },
    ]);
    const current = tile.querySelector('[data-metric="thermostat.current_temperature"]');
    expect(current?.textContent).toBe('Current temperature19.5°C');
  });

  it("switches a composite light with the tile's power switch and shows its brightness in %", () => {
    const { tile, sent } = setup('lamp');
    const power = within(tile).getByRole('switch', { name: 'Power Desk lamp' });
    expect(power.getAttribute('aria-checked')).toBe('true');
    expect(
      within(tile)
        .getByRole('slider', { name: /^Brightness/ })
        .getAttribute('aria-valuetext'),
    ).toBe('50 %');
    fireEvent.click(power);
    expect(sent()).toEqual([
      { input: { id: 'light', value: { state: false } }, state: { light: { state: false } } },
    ]);
  });

  it("offers a vacuum's Start, Pause and Dock, the rest behind More, and its state and battery", () => {
    const { tile, sent } = setup('robot');
    expect(
      within(tile)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(expect.arrayContaining(['Start', 'Pause', 'Dock']));
    fireEvent.click(within(tile).getByRole('button', { name: 'Dock' }));
    fireEvent.change(within(tile).getByRole('combobox', { name: 'More actions: Command' }), {
      target: { value: 'locate' },
    });
    expect(sent()).toEqual([
      {
        input: { id: 'vacuum', value: { command: 'return_to_base' } },
        state: { vacuum: { command: 'return_to_base' } },
      },
      { input: { id: 'vacuum', value: { command: 'locate' } }, state: { vacuum: { command: 'locate' } } },
    ]);
    expect(tile.querySelector('[data-metric="vacuum.state"]')?.textContent).toBe('RobotDocked');
    expect(tile.querySelector('[data-metric="vacuum.battery_level"]')?.textContent).toBe('Battery90%');
  });

  it('arms an alarm panel with the code typed, and offers only Disarm while armed', () => {
    const { tile, sent } = setup('alarm');
    expect(within(tile).getByText('Disarmed')).toBeTruthy();
    fireEvent.change(within(tile).getByLabelText('Code for House alarm'), { target: { value: '1234' } });
    fireEvent.click(within(tile).getByRole('button', { name: 'Arm away' }));
    expect(sent()).toEqual([
      {
        input: { id: 'panel', value: { command: 'arm_away', code: '1234' } },
        state: { panel: { command: 'arm_away', code: '1234' } },
      },
    ]);
    expect((within(tile).getByLabelText('Code for House alarm') as HTMLInputElement).value).toBe('');
    cleanup();
    const armed = setup('alarm', { state: { panel: { state: 'armed_away' } } }).tile;
    expect(within(armed).getByText('Armed away')).toBeTruthy();
    expect(
      within(armed)
        .getAllByRole('button')
        .map((b) => b.textContent)
        .filter((text) => text !== ''),
    ).toEqual(['Disarm']);
  });

  it("shows an update's versions to everyone and Install to admins only", () => {
    const resident = setup('hub').tile;
    expect(within(resident).getByText('Installed 1.0.0')).toBeTruthy();
    expect(within(resident).getByText('Latest 1.1.0')).toBeTruthy();
    expect(within(resident).queryByRole('button', { name: 'Install the update of Hub' })).toBeNull();
    cleanup();
    const { tile, sent } = setup('hub', {}, { admin: true });
    fireEvent.click(within(tile).getByRole('button', { name: 'Install the update of Hub' }));
    expect(sent()).toEqual([
      {
        input: { id: 'firmware', value: { command: 'install' } },
        state: { firmware: { command: 'install' } },
      },
    ]);
    cleanup();
    const current = setup(
      'hub',
      { state: { firmware: { installed_version: '1.1.0', latest_version: '1.1.0' } } },
      { admin: true },
    );
    expect(within(current.tile).getByText('Up to date')).toBeTruthy();
    expect(within(current.tile).queryByRole('button', { name: 'Install the update of Hub' })).toBeNull();
  });

  it("presses a button entity, and shows an event entity's last event", () => {
    const { tile, sent } = setup('bell');
    fireEvent.click(within(tile).getByRole('button', { name: 'Restart' }));
    expect(sent()).toEqual([{ input: { id: 'restart', value: 'press' }, state: { restart: 'press' } }]);
    expect(tile.querySelector('[data-event="ring"]')?.textContent).toMatch(/^DoorbellPress/);
  });

  it('stamps an event when it fires again with the same type, not at the retained replay', () => {
    let now = 1_000_000;
    const raw = sourceRaw('bell');
    const { store } = testHub([raw]);
    (store as unknown as { now: () => number }).now = () => now;
    store.applyState('bell', { ring: 'press' });
    expect(store.getEventTime('bell', 'ring')).toBeNull();
    now += 60_000;
    store.applyState('bell', { ring: 'press' });
    expect(store.getEventTime('bell', 'ring')).toBe(now);
    now += 60_000;
    store.applyState('bell', { ring: 'double_press' });
    expect(store.getEventTime('bell', 'ring')).toBe(now);
  });

  it('tells admins in Details which value could not be read, and why; residents not', () => {
    const broken = (raw: Json) => ({
      capabilities: (raw.capabilities as Json[]).map((capability) => ({
        ...capability,
        error: "float got invalid input 'n/a'",
      })),
    });
    const admin = setup('eq', broken(sourceRaw('eq')), { admin: true }).tile;
    const details = within(admin).getByRole('region', { name: 'Details' });
    expect(within(details).getByText('Level: could not be read')).toBeTruthy();
    expect(within(details).getAllByText("float got invalid input 'n/a'")).toHaveLength(3);
    cleanup();
    const resident = setup('eq', broken(sourceRaw('eq'))).tile;
    expect(within(resident).queryByText('Level: could not be read')).toBeNull();
  });

  it('shows on the tile that the device refused the command or did not answer, until the next command', async () => {
    const { tile, store } = setup('shutter');
    act(() => store.setFailure('shutter', 'The device refused the command: Cover not calibrated (-103)'));
    expect(within(tile).getByRole('alert').textContent).toBe(
      'The device refused the command: Cover not calibrated (-103)',
    );
  });

  it.each<SourceDevice>([
    'thermostat',
    'lamp',
    'fan',
    'blind',
    'robot',
    'alarm',
    'bell',
    'siren',
    'valve',
    'eq',
    'plug',
    'dimmer',
    'shutter',
  ])('%s: at most 6 tab stops', (name) => {
    expect(tabStops(setup(name).tile)).toBeLessThanOrEqual(6);
  });
});
