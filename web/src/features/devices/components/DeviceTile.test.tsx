import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Json } from '../model/device.types.js';
import { rawGroupDevice } from '../model/test-devices.js';
import { testHub } from '../test-hub.js';
import { DeviceTile } from './DeviceTile.js';
import { DevicesContext } from './devices-context.js';

afterEach(cleanup);

/** docs/screens.md#device-tile: rename, history, room, star, recording and access are in the tile's menu. */
const openMenu = (name: string) =>
  fireEvent.click(screen.getByRole('button', { name: `Options for ${name}` }));

const writable = { readOnly: false, write: true, set: true };

function setup(raw: Json, manager?: boolean) {
  const { store, actions } = testHub([raw]);
  render(
    <DevicesContext.Provider value={{ store, actions, ...(manager === undefined ? {} : { manager }) }}>
      <DeviceTile deviceKey={String(raw.id)} />
    </DevicesContext.Provider>,
  );
  return { store, actions };
}

const sliders = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    id: `level_${index}`,
    type: 'slider',
    property: `level_${index}`,
    access: writable,
  }));

const lamp = (access: 'view' | 'control') => ({
  id: 'lamp',
  name: 'Lamp',
  access,
  state: { state: 'ON', brightness: 100 },
  inputs: [
    { id: 'state', type: 'toggle', property: 'state', access: writable },
    { id: 'brightness', type: 'slider', property: 'brightness', access: writable },
  ],
});

describe('DeviceTile for a viewer who may only view it (docs/screens.md#devices-for-a-user)', () => {
  it('shows the state live with "View only", the switch and controls disabled and described by it', () => {
    const { store, actions } = setup(lamp('view'));
    const power = screen.getByRole('switch', { name: 'Power Lamp' });
    expect(power).toHaveProperty('disabled', true);
    expect(power.getAttribute('aria-checked')).toBe('true');
    const reason = screen.getByText('View only');
    expect(power.getAttribute('aria-describedby')).toBe(reason.id);
    expect(screen.getByRole('slider')).toHaveProperty('disabled', true);
    expect(screen.getByRole('group').getAttribute('aria-describedby')).toBe(reason.id);
    fireEvent.click(power);
    expect(actions.send).not.toHaveBeenCalled();
    expect(screen.queryByRole('button', { name: 'Rename Lamp' })).toBeNull();
    act(() => {
      store.applyState('lamp', { state: 'OFF', brightness: 10 });
      store.flush();
    });
    expect(screen.getByRole('switch', { name: 'Power Lamp' }).getAttribute('aria-checked')).toBe('false');
  });

  it('gives control back when the server says control', () => {
    const { store } = setup(lamp('view'));
    act(() => {
      store.upsert({ id: 'lamp', access: 'control' });
      store.flush();
    });
    expect(screen.getByRole('switch', { name: 'Power Lamp' })).toHaveProperty('disabled', false);
    expect(screen.queryByText('View only')).toBeNull();
  });

  it('offers a `user` with control the switch but no rename, history, recording or access', () => {
    const { actions } = setup(lamp('control'), false);
    fireEvent.click(screen.getByRole('switch', { name: 'Power Lamp' }));
    expect(actions.send).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Rename Lamp' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'History of Lamp' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^History…/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Access…/ })).toBeNull();
  });

  it('offers a resident or admin "Access…" for the device', () => {
    setup(lamp('control'));
    openMenu('Lamp');
    expect(screen.getByRole('button', { name: 'Access… (who may use Lamp)' })).toBeTruthy();
  });
});

describe('DeviceTile', () => {
  it('shows the first 5 controls, then "Show N more" / "Show fewer controls"', () => {
    setup({ id: 'd', name: 'Dimmer', inputs: sliders(7) });
    expect(screen.getAllByRole('slider')).toHaveLength(5);
    fireEvent.click(screen.getByRole('button', { name: 'Show 2 more' }));
    expect(screen.getAllByRole('slider')).toHaveLength(7);
    fireEvent.click(screen.getByRole('button', { name: 'Show fewer controls' }));
    expect(screen.getAllByRole('slider')).toHaveLength(5);
  });

  it('shows the first 5 metrics, then "Show N more" / "Show fewer details"', () => {
    setup({
      id: 's',
      name: 'Sensor',
      state: {
        temperature: 21.456,
        humidity: 40,
        battery: 90,
        linkquality: 100,
        pressure: 1000,
        voltage: 3000,
      },
    });
    expect(screen.getByText('21.46')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show 1 more' }));
    fireEvent.click(screen.getByRole('button', { name: 'Show fewer details' }));
  });

  it('renames inline: Enter saves, Escape cancels', async () => {
    const { actions } = setup({ id: 'l', name: 'Lamp' });
    openMenu('Lamp');
    fireEvent.click(screen.getByRole('button', { name: 'Rename Lamp' }));
    const field = screen.getByLabelText('Device name');
    fireEvent.change(field, { target: { value: 'Desk lamp' } });
    await act(async () => {
      fireEvent.keyDown(field, { key: 'Enter' });
    });
    expect(actions.rename).toHaveBeenCalledWith(expect.objectContaining({ id: 'l' }), 'Desk lamp');
    expect(screen.queryByLabelText('Device name')).toBeNull();

    openMenu('Lamp');
    fireEvent.click(screen.getByRole('button', { name: 'Rename Lamp' }));
    fireEvent.keyDown(screen.getByLabelText('Device name'), { key: 'Escape' });
    expect(screen.queryByLabelText('Device name')).toBeNull();
    expect(actions.rename).toHaveBeenCalledTimes(1);
  });

  it('shows the rename error line', async () => {
    const { actions } = setup({ id: 'l', name: 'Lamp' });
    actions.rename.mockRejectedValue(new Error('Name cannot be empty'));
    openMenu('Lamp');
    fireEvent.click(screen.getByRole('button', { name: 'Rename Lamp' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    expect(screen.getByRole('alert').textContent).toBe('Name cannot be empty');
  });

  it('disables controls and shows "Updating…" while a command is pending', () => {
    const { store } = setup({
      id: 'b',
      name: 'Bulb',
      state: { state: 'ON', brightness: 10 },
      inputs: [
        { id: 'state', type: 'toggle', property: 'state', access: writable },
        { id: 'brightness', type: 'slider', property: 'brightness', access: writable },
      ],
    });
    expect(screen.queryByText('Updating…')).toBeNull();
    act(() => store.setPending('b', true));
    expect(screen.getByText('Updating…')).toBeTruthy();
    expect((screen.getByRole('slider') as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('switch', { name: 'Power Bulb' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('sends the power toggle and applies a colour from the hex field', () => {
    const { actions } = setup({
      id: 'b',
      name: 'Bulb',
      state: { state: 'OFF' },
      inputs: [
        { id: 'state', type: 'toggle', property: 'state', access: writable },
        { id: 'color', type: 'color', property: 'color', label: 'Color', access: writable },
      ],
    });
    fireEvent.click(screen.getByRole('switch', { name: 'Power Bulb' }));
    expect(actions.send).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'b' }), {
      input: { id: 'state', value: true },
      state: { on: true },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Adjust color' }));
    fireEvent.change(screen.getByLabelText('Color hex'), { target: { value: 'ff8800' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(actions.send).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'b' }), {
      input: { id: 'color', value: '#FF8800' },
      state: { color: '#FF8800', on: true },
    });
    // the server holds no valid colour (xy): the picked one is kept
    expect(screen.getByTitle('#FF8800')).toBeTruthy();
  });

  it('shows Online/Offline when there is no power toggle, and the pills', () => {
    setup({
      id: 'c',
      name: 'Door',
      protocol: 'zigbee',
      firmware: '1.2',
      online: false,
      state: { contact: true },
      capabilities: [{ id: 'contact', property: 'contact', kind: 'binary', access: { readOnly: true } }],
    });
    expect(screen.getByText('Offline')).toBeTruthy();
    expect(screen.getByText('Zigbee2MQTT')).toBeTruthy();
    expect(screen.getByText('1 capabilities')).toBeTruthy();
    expect(screen.getByText('FW 1.2')).toBeTruthy();
    expect(screen.getByText('Contact: Closed')).toBeTruthy();
  });

  it('greys out every control while the device bus is offline, and gives them back when it returns', () => {
    const { store } = setup({
      id: 'lamp',
      name: 'Lamp',
      state: { state: 'ON', brightness: 100 },
      capabilities: [{ id: 'state', property: 'state', kind: 'binary', access: writable }],
      inputs: [
        { id: 'state', type: 'toggle', property: 'state', access: writable },
        { id: 'brightness', type: 'slider', property: 'brightness', access: writable },
      ],
    });
    expect((screen.getByRole('switch', { name: 'Power Lamp' }) as HTMLButtonElement).disabled).toBe(false);
    act(() => store.setStatus({ bus: { bus: 'offline', since: '2026-01-05T09:07:00.000Z' } }));
    expect((screen.getByRole('switch', { name: 'Power Lamp' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('slider') as HTMLInputElement).disabled).toBe(true);
    openMenu('Lamp');
    expect((screen.getByRole('button', { name: 'Rename Lamp' }) as HTMLButtonElement).disabled).toBe(true);
    act(() => store.setStatus({ bus: { bus: 'online', since: '2026-01-05T09:08:00.000Z' } }));
    expect((screen.getByRole('slider') as HTMLInputElement).disabled).toBe(false);
  });

  it('counts a composite as one control: the first 5, then "Show N more"', () => {
    setup(rawGroupDevice());
    const tile = screen.getByRole('article', { name: 'Hall siren' });
    expect(
      within(tile)
        .getAllByRole('button', { name: /^Edit / })
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Edit Warning', 'Edit Gradient', 'Edit Schedule']);
    expect(within(tile).getAllByRole('switch')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Show 1 more' }));
    expect(within(tile).getAllByRole('switch')).toHaveLength(2);
    // Closed, a composite shows no fields.
    expect(screen.queryByRole('group', { name: 'Warning' })).toBeNull();
  });

  it('applies a siren warning as one object from its fields, and Cancel drops the edits', () => {
    const { actions } = setup(rawGroupDevice({ warning: { mode: 'fire' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit Warning' }));
    const group = screen.getByRole('group', { name: 'Warning' });
    expect((within(group).getByLabelText('Mode') as HTMLSelectElement).value).toBe('fire');
    fireEvent.change(within(group).getByLabelText('Mode'), { target: { value: 'burglar' } });
    fireEvent.change(within(group).getByLabelText('Level'), { target: { value: 'high' } });
    fireEvent.click(within(group).getByRole('switch', { name: 'Strobe' }));
    fireEvent.change(within(group).getByLabelText('Duration'), { target: { value: '10' } });
    expect(actions.send).not.toHaveBeenCalled();
    fireEvent.click(within(group).getByRole('button', { name: 'Apply' }));
    const warning = { mode: 'burglar', level: 'high', strobe: true, duration: 10 };
    expect(actions.send).toHaveBeenCalledWith(expect.objectContaining({ id: 'siren' }), {
      input: { id: 'warning', value: warning },
      state: { warning },
    });
    expect(screen.queryByRole('group', { name: 'Warning' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Edit Warning' }));
    fireEvent.change(screen.getByLabelText('Mode'), { target: { value: 'stop' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit Warning' }));
    expect((screen.getByLabelText('Mode') as HTMLSelectElement).value).toBe('fire');
    expect(actions.send).toHaveBeenCalledTimes(1);
  });

  it('keeps Apply off and says why while a field is out of range', () => {
    const { actions } = setup(rawGroupDevice());
    fireEvent.click(screen.getByRole('button', { name: 'Edit Warning' }));
    const group = screen.getByRole('group', { name: 'Warning' });
    const apply = within(group).getByRole('button', { name: 'Apply' }) as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    fireEvent.change(within(group).getByLabelText('Duration'), { target: { value: '5000' } });
    expect(apply.disabled).toBe(true);
    expect(within(group).getByText('Duration must be between 0 and 1800')).toBeTruthy();
    expect(within(group).getByLabelText('Duration').getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(apply);
    expect(actions.send).not.toHaveBeenCalled();
  });

  it('edits a list: add, edit, remove items, then Apply sends the list', () => {
    const { actions } = setup(rawGroupDevice({ gradient: ['#FF0000'] }));
    fireEvent.click(screen.getByRole('button', { name: 'Edit Gradient' }));
    const group = screen.getByRole('group', { name: 'Gradient' });
    expect((within(group).getByRole('button', { name: 'Remove Hex 1' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    fireEvent.click(within(group).getByRole('button', { name: 'Add Hex' }));
    fireEvent.change(within(group).getByLabelText('Hex 2'), { target: { value: '#00FF00' } });
    fireEvent.click(within(group).getByRole('button', { name: 'Add Hex' }));
    expect((within(group).getByRole('button', { name: 'Add Hex' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(group).getByLabelText('Hex 3'), { target: { value: '#0000FF' } });
    fireEvent.click(within(group).getByRole('button', { name: 'Remove Hex 1' }));
    fireEvent.click(within(group).getByRole('button', { name: 'Apply' }));
    expect(actions.send).toHaveBeenCalledWith(expect.anything(), {
      input: { id: 'gradient', value: ['#00FF00', '#0000FF'] },
      state: { gradient: ['#00FF00', '#0000FF'] },
    });
  });

  it('edits nested groups: a list of composites and a composite inside a composite', () => {
    const { actions } = setup(rawGroupDevice());
    fireEvent.click(screen.getByRole('button', { name: 'Edit Schedule' }));
    const schedule = screen.getByRole('group', { name: 'Schedule' });
    fireEvent.click(within(schedule).getByRole('button', { name: 'Add Day' }));
    fireEvent.change(within(within(schedule).getByRole('group', { name: 'Day 1' })).getByLabelText('Day'), {
      target: { value: 'friday' },
    });
    fireEvent.click(within(within(schedule).getByRole('group', { name: 'Boost' })).getByRole('switch'));
    fireEvent.click(within(schedule).getByRole('button', { name: 'Apply' }));
    const value = { dayofweek: [{ day: 'friday' }], boost: { enabled: true } };
    expect(actions.send).toHaveBeenCalledWith(expect.anything(), {
      input: { id: 'weekly_schedule', value },
      state: { weekly_schedule: value },
    });
  });

  it('sends settable text on Enter', () => {
    const { actions } = setup(rawGroupDevice({ display_text: 'Hi' }));
    fireEvent.click(screen.getByRole('button', { name: 'Show 1 more' }));
    const field = screen.getByLabelText('Display text');
    fireEvent.change(field, { target: { value: 'Welcome home' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(actions.send).toHaveBeenCalledWith(expect.anything(), {
      input: { id: 'display_text', value: 'Welcome home' },
      state: { display_text: 'Welcome home' },
    });
  });
});

describe('DeviceTile in household words (issue 34)', () => {
  afterEach(() => vi.useRealTimers());

  const bulb = {
    id: 'bulb',
    name: 'Bulb',
    state: { state: 'ON', brightness: 127, color_temp: 370 },
    capabilities: [
      {
        id: 'brightness',
        property: 'brightness',
        kind: 'numeric',
        range: { min: 0, max: 254 },
        access: writable,
      },
      {
        id: 'color_temp',
        property: 'color_temp',
        kind: 'numeric',
        unit: 'mired',
        range: { min: 150, max: 500 },
        access: writable,
      },
    ],
    inputs: [
      { id: 'state', type: 'toggle', property: 'state', access: writable },
      {
        id: 'brightness',
        type: 'slider',
        property: 'brightness',
        range: { min: 0, max: 254 },
        access: writable,
      },
      {
        id: 'color_temp',
        type: 'slider',
        property: 'color_temp',
        range: { min: 150, max: 500 },
        access: writable,
        metadata: { unit: 'mired' },
      },
    ],
  };

  it('shows brightness in % and colour temperature in kelvin, and sends the device its own scale', () => {
    const { actions } = setup(bulb);
    const [brightness, warmth] = screen.getAllByRole('slider') as HTMLInputElement[];
    expect([brightness!.value, brightness!.getAttribute('aria-valuetext')]).toEqual(['50', '50 %']);
    expect([warmth!.value, warmth!.getAttribute('aria-valuetext')]).toEqual(['2700', '2700 K']);
    expect(screen.getByLabelText('Color temperature')).toBe(warmth);
    fireEvent.change(brightness!, { target: { value: '100' } });
    fireEvent.blur(brightness!);
    expect(actions.send).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'bulb' }), {
      input: { id: 'brightness', value: 254 },
      state: { brightness: 254, on: true },
    });
    fireEvent.change(warmth!, { target: { value: '4000' } });
    fireEvent.blur(warmth!);
    expect(actions.send).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'bulb' }), {
      input: { id: 'color_temp', value: 250 },
      state: { color_temp: 250 },
    });
  });

  it('sends five arrow-key steps as one command, 250 ms after the last', () => {
    vi.useFakeTimers();
    const { actions } = setup(bulb);
    const [brightness] = screen.getAllByRole('slider') as HTMLInputElement[];
    for (const value of ['51', '52', '53', '54', '55']) {
      fireEvent.keyDown(brightness!, { key: 'ArrowRight' });
      fireEvent.change(brightness!, { target: { value } });
      fireEvent.keyUp(brightness!, { key: 'ArrowRight' });
      act(() => vi.advanceTimersByTime(50));
    }
    expect(actions.send).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(250));
    expect(actions.send).toHaveBeenCalledTimes(1);
    expect(actions.send).toHaveBeenLastCalledWith(expect.anything(), {
      input: { id: 'brightness', value: 140 },
      state: { brightness: 140, on: true },
    });
  });

  it('reads a lock as Locked with "Unlock", which asks first; "Lock" does not', () => {
    const raw = {
      id: 'door',
      name: 'Front door lock',
      type: 'lock',
      state: { state: 'LOCK' },
      capabilities: [
        {
          id: 'state',
          property: 'state',
          kind: 'binary',
          type: 'lock',
          access: writable,
          metadata: { value_on: 'LOCK', value_off: 'UNLOCK' },
        },
      ],
    };
    const { actions, store } = setup(raw);
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.getByText('Locked')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Unlock Front door lock' }));
    const dialog = screen.getByRole('dialog', { name: 'Unlock Front door lock?' });
    expect(actions.send).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(actions.send).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Unlock Front door lock' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Unlock' }));
    expect(actions.send).toHaveBeenLastCalledWith(expect.objectContaining({ id: 'door' }), {
      input: { id: 'state', value: false },
      state: { on: false },
    });
    act(() => {
      store.applyState('door', { state: 'UNLOCK' });
      store.flush();
    });
    expect(screen.getByText('Unlocked')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Lock Front door lock' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(actions.send).toHaveBeenLastCalledWith(expect.anything(), {
      input: { id: 'state', value: true },
      state: { on: true },
    });
  });

  it('puts link quality under "Details", after the readings, and names properties in plain words', () => {
    setup({
      id: 'trv',
      name: 'Radiator',
      state: { local_temperature: 21.1, pi_heating_demand: 35, battery: 78, linkquality: 120 },
      capabilities: [
        {
          id: 'local_temperature',
          property: 'local_temperature',
          kind: 'numeric',
          unit: '°C',
          name: 'Local temperature',
        },
        {
          id: 'pi_heating_demand',
          property: 'pi_heating_demand',
          kind: 'numeric',
          unit: '%',
          name: 'Pi heating demand',
        },
      ],
    });
    const readings = screen.getAllByRole('term').map((term) => term.textContent);
    expect(readings).toEqual(['Current temperature', 'Heating demand', 'Battery', 'Link quality']);
    const details = screen.getByRole('region', { name: 'Details' });
    expect(
      within(details)
        .getAllByRole('term')
        .map((term) => term.textContent),
    ).toEqual(['Link quality']);
  });

  it('says "Not responding" when its state did not confirm the last command', () => {
    const { store } = setup(lamp('control'));
    expect(screen.queryByText('Not responding')).toBeNull();
    act(() => store.setNotResponding('lamp', true));
    expect(screen.getByText('Not responding').getAttribute('role')).toBe('status');
    act(() => {
      store.applyState('lamp', { state: 'ON' });
      store.flush();
    });
    expect(screen.queryByText('Not responding')).toBeNull();
  });
});
