import { type CreatePassRequest, type Device, PASS_LEVELS, type Room, WEEKDAYS } from '@hearth/contracts';
import { useId, useMemo, useState } from 'react';
import { Dialog, DialogActions } from '../../shared/ui/Dialog.js';
import { Field } from '../../shared/ui/Field.js';
import { coversWholeWeek, newWindow, type PassDraft, passRequest, type WindowDraft } from './passes.form.js';
import { dayName, toLocalInput } from './passes.format.js';
import { LEVEL_LABELS, PASSES_MESSAGES as M } from './passes.messages.js';

const HOUR = 3_600_000;

/** docs/passes.md#pages: label, rooms and devices, level, and a period or weekly windows. */
export function NewPassDialog({
  rooms,
  devices,
  timeZone,
  onClose,
  onCreate,
}: {
  rooms: Room[];
  devices: Device[];
  timeZone: string;
  onClose(): void;
  /** Rejects with the message to show. */
  onCreate(body: CreatePassRequest): Promise<void>;
}) {
  const id = useId();
  const [draft, setDraft] = useState<PassDraft>(() => ({
    label: '',
    rooms: [],
    devices: [],
    level: 'control',
    when: 'period',
    startsAt: toLocalInput(Date.now()),
    endsAt: toLocalInput(Date.now() + 48 * HOUR),
    windows: [{ ...newWindow(), days: ['tue'] }],
  }));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const update = (fields: Partial<PassDraft>) => setDraft((current) => ({ ...current, ...fields }));
  const toggle = (list: string[], item: string) =>
    list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
  const setWindow = (index: number, fields: Partial<WindowDraft>) =>
    update({ windows: draft.windows.map((w, i) => (i === index ? { ...w, ...fields } : w)) });
  // docs/passes.md#validity: windows that never close need an end within a year.
  const wholeWeek = draft.when === 'weekly' && coversWholeWeek(draft.windows);
  const sorted = useMemo(
    () => [...devices].sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' })),
    [devices],
  );

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const built = passRequest(draft);
    if ('error' in built) return setError(built.error);
    setSaving(true);
    setError(null);
    try {
      await onCreate(built.request);
    } catch (failure) {
      setError((failure as Error).message);
      setSaving(false);
    }
  };

  return (
    <Dialog labelledBy={`${id}-title`} onClose={onClose} className="new-pass-dialog">
      <h2 id={`${id}-title`} className="dialog-title">
        {M.createTitle}
      </h2>
      <form className="new-pass-form" onSubmit={(event) => void submit(event)} noValidate>
        <Field
          label={M.label}
          value={draft.label}
          maxLength={64}
          onChange={(event) => update({ label: event.target.value })}
          data-autofocus
        />
        <fieldset className="new-pass-group">
          <legend>{M.rooms}</legend>
          {rooms.length === 0 && <p className="new-pass-hint">{M.noRooms}</p>}
          <div className="new-pass-choices">
            {rooms.map((room) => (
              <label key={room.id} className="new-pass-choice">
                <input
                  type="checkbox"
                  checked={draft.rooms.includes(room.id)}
                  onChange={() => update({ rooms: toggle(draft.rooms, room.id) })}
                />
                {room.name}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className="new-pass-group">
          <legend>{M.devices}</legend>
          <div className="new-pass-choices new-pass-choices--scroll">
            {sorted.map((device) => (
              <label key={device.id} className="new-pass-choice">
                <input
                  type="checkbox"
                  checked={draft.devices.includes(device.id)}
                  onChange={() => update({ devices: toggle(draft.devices, device.id) })}
                />
                {device.name}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className="new-pass-group">
          <legend>{M.access}</legend>
          <div className="new-pass-choices">
            {PASS_LEVELS.map((level) => (
              <label key={level} className="new-pass-choice">
                <input
                  type="radio"
                  name={`${id}-level`}
                  checked={draft.level === level}
                  onChange={() => update({ level })}
                />
                {LEVEL_LABELS[level]}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset className="new-pass-group">
          <legend>{M.when}</legend>
          <div className="new-pass-choices">
            {(['period', 'weekly'] as const).map((when) => (
              <label key={when} className="new-pass-choice">
                <input
                  type="radio"
                  name={`${id}-when`}
                  checked={draft.when === when}
                  onChange={() => update({ when })}
                />
                {when === 'period' ? M.period : M.weekly}
              </label>
            ))}
          </div>
          <div className="new-pass-times">
            <Field
              label={M.starts}
              type="datetime-local"
              value={draft.startsAt}
              onChange={(event) => update({ startsAt: event.target.value })}
            />
            <Field
              label={draft.when === 'period' || wholeWeek ? M.ends : M.endsOptional}
              type="datetime-local"
              value={draft.endsAt}
              onChange={(event) => update({ endsAt: event.target.value })}
            />
          </div>
          {draft.when === 'weekly' && (
            <div className="new-pass-windows">
              <p className="new-pass-hint">{M.timeZone(timeZone)}</p>
              {wholeWeek && <p className="new-pass-hint">{M.wholeWeek}</p>}
              {draft.windows.map((window, index) => (
                <fieldset
                  // biome-ignore lint/suspicious/noArrayIndexKey: windows have no id; their order is their identity.
                  key={index}
                  className="new-pass-window"
                >
                  <legend className="visually-hidden">{`${M.weekly} ${index + 1}`}</legend>
                  <div className="new-pass-days">
                    {WEEKDAYS.map((day) => (
                      <label key={day} className="new-pass-day">
                        <input
                          type="checkbox"
                          checked={window.days.includes(day)}
                          onChange={() =>
                            setWindow(index, {
                              days: WEEKDAYS.filter((d) =>
                                d === day ? !window.days.includes(d) : window.days.includes(d),
                              ),
                            })
                          }
                        />
                        {dayName(day)}
                      </label>
                    ))}
                  </div>
                  <div className="new-pass-hours">
                    <Field
                      label={M.from}
                      type="time"
                      value={window.from}
                      onChange={(event) => setWindow(index, { from: event.target.value })}
                    />
                    <Field
                      label={M.to}
                      type="time"
                      value={window.to === '24:00' ? '00:00' : window.to}
                      onChange={(event) => setWindow(index, { to: event.target.value })}
                    />
                    {draft.windows.length > 1 && (
                      <button
                        type="button"
                        className="button button--ghost button--small"
                        onClick={() => update({ windows: draft.windows.filter((_, i) => i !== index) })}
                      >
                        {M.removeWindow}
                      </button>
                    )}
                  </div>
                </fieldset>
              ))}
              <button
                type="button"
                className="button button--secondary button--small"
                onClick={() => update({ windows: [...draft.windows, newWindow()] })}
              >
                {M.addWindow}
              </button>
            </div>
          )}
        </fieldset>
        <p className="new-pass-error" role="alert">
          {error}
        </p>
        <DialogActions leaveLabel={M.cancel} onLeave={onClose}>
          <button type="submit" className="button button--primary" disabled={saving}>
            {saving ? M.creating : M.create}
          </button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
