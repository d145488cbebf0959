import type {
  AutomationAction,
  AutomationCondition,
  AutomationTrigger,
  Capability,
  Device,
  DeviceState,
  IsoWeekday,
  Scene,
} from '@hearth/contracts';
import { useMemo } from 'react';
import { ControlView } from '../devices/components/ControlView.js';
import { buildCommand } from '../devices/model/commands.js';
import { deviceControls } from '../devices/model/controls.js';
import { toDevice } from '../devices/model/device.model.js';
import type { Json } from '../devices/model/device.types.js';
import { choices, readable, typed, writable } from './automations.draft.js';
import { AUTOMATIONS_MESSAGES as M, WEEKDAY_NAMES } from './automations.messages.js';
import { stateWords } from './automations.words.js';

export interface Catalogue {
  devices: Device[];
  scenes: Scene[];
  automations: { id: string; name: string }[];
  people: { id: string; name: string }[];
}

const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

function DevicePicker({
  devices,
  value,
  onChange,
  label,
}: {
  devices: Device[];
  value: string;
  onChange(id: string): void;
  label: string;
}) {
  const sorted = useMemo(() => [...devices].sort(byName), [devices]);
  return (
    <select className="select" aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      {!sorted.some((each) => each.id === value) && (
        <option value={value}>{value ? value : M.pickDevice}</option>
      )}
      {sorted.map((device) => (
        <option key={device.id} value={device.id}>
          {device.name}
        </option>
      ))}
    </select>
  );
}

function PropertyPicker({
  capabilities,
  value,
  onChange,
  label,
}: {
  capabilities: Capability[];
  value: string;
  onChange(property: string): void;
  label: string;
}) {
  return (
    <select className="select" aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      {!capabilities.some((each) => each.property === value) && (
        <option value={value}>{value || M.pickProperty}</option>
      )}
      {capabilities.map((capability) => (
        <option key={capability.id} value={capability.property}>
          {capability.name || capability.property}
        </option>
      ))}
    </select>
  );
}

/** A value to compare with: the property's own choices, else a field. */
function ValueField({
  capability,
  value,
  onChange,
  label,
}: {
  capability: Capability | undefined;
  value: unknown;
  onChange(value: string | number | boolean): void;
  label: string;
}) {
  const options = choices(capability);
  const text = value === undefined ? '' : String(value);
  if (options)
    return (
      <select
        className="select"
        aria-label={label}
        value={text}
        onChange={(e) => onChange(typed(e.target.value, capability))}
      >
        {!options.includes(text) && <option value={text}>{text || M.value}</option>}
        {options.map((each) => (
          <option key={each} value={each}>
            {each}
          </option>
        ))}
      </select>
    );
  return (
    <input
      className="input input--short"
      aria-label={label}
      inputMode={capability?.kind === 'numeric' ? 'decimal' : undefined}
      value={text}
      onChange={(e) => onChange(typed(e.target.value, capability))}
    />
  );
}

function NumberField({
  value,
  onChange,
  label,
  min,
}: {
  value: number | undefined;
  onChange(value: number | undefined): void;
  label: string;
  min?: number;
}) {
  return (
    <input
      className="input input--short"
      type="number"
      aria-label={label}
      min={min}
      value={value ?? ''}
      onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
    />
  );
}

function Weekdays({
  value,
  onChange,
}: {
  value: IsoWeekday[] | undefined;
  onChange(days: IsoWeekday[] | undefined): void;
}) {
  const chosen = new Set(value ?? []);
  return (
    <fieldset className="automation-days" aria-label={M.onDays}>
      {WEEKDAY_NAMES.map((name, index) => {
        const day = (index + 1) as IsoWeekday;
        return (
          <label key={name} className="automation-day">
            <input
              type="checkbox"
              checked={chosen.has(day)}
              onChange={(e) => {
                const next = new Set(chosen);
                if (e.target.checked) next.add(day);
                else next.delete(day);
                onChange(next.size === 0 ? undefined : ([...next].sort() as IsoWeekday[]));
              }}
            />
            {name}
          </label>
        );
      })}
    </fieldset>
  );
}

const capabilityOf = (device: Device | undefined, property: string) =>
  device?.capabilities.find((each) => each.property === property || each.id === property);

type StateTrigger = Extract<AutomationTrigger, { type: 'state' }>;
type Comparison = 'to' | 'above' | 'below' | 'changes';
const comparisonOf = (trigger: StateTrigger): Comparison =>
  trigger.to !== undefined
    ? 'to'
    : trigger.above !== undefined
      ? 'above'
      : trigger.below !== undefined
        ? 'below'
        : 'changes';

export function TriggerEditor({
  trigger,
  catalogue,
  onChange,
}: {
  trigger: AutomationTrigger;
  catalogue: Catalogue;
  onChange(next: AutomationTrigger): void;
}) {
  const device =
    'device_id' in trigger ? catalogue.devices.find((each) => each.id === trigger.device_id) : undefined;
  switch (trigger.type) {
    case 'time':
      return (
        <span className="automation-words">
          {M.at}{' '}
          <input
            className="input input--short"
            type="time"
            step={1}
            aria-label="Time"
            value={trigger.at}
            onChange={(e) =>
              onChange({
                ...trigger,
                at: e.target.value.length === 5 || e.target.value.length === 8 ? e.target.value : trigger.at,
              })
            }
          />{' '}
          <Weekdays
            value={trigger.weekdays}
            onChange={(weekdays) =>
              onChange({ type: 'time', at: trigger.at, ...(weekdays ? { weekdays } : {}) })
            }
          />
        </span>
      );
    case 'cron':
      return (
        <span className="automation-words">
          <input
            className="input"
            aria-label="Cron expression"
            value={trigger.expression}
            onChange={(e) => onChange({ ...trigger, expression: e.target.value })}
          />
        </span>
      );
    case 'sun':
      return (
        <span className="automation-words">
          <select
            className="select"
            aria-label="Sun event"
            value={trigger.event}
            onChange={(e) => onChange({ ...trigger, event: e.target.value as 'sunrise' | 'sunset' })}
          >
            <option value="sunrise">sunrise</option>
            <option value="sunset">sunset</option>
          </select>{' '}
          <NumberField
            label={M.offset}
            value={trigger.offset_minutes}
            onChange={(offset) =>
              onChange({ type: 'sun', event: trigger.event, ...(offset ? { offset_minutes: offset } : {}) })
            }
          />{' '}
          {M.offset}
        </span>
      );
    case 'state': {
      const capability = capabilityOf(device, trigger.property);
      const comparison = comparisonOf(trigger);
      const base: StateTrigger = {
        type: 'state',
        device_id: trigger.device_id,
        property: trigger.property,
        ...(trigger.for_seconds ? { for_seconds: trigger.for_seconds } : {}),
      };
      return (
        <span className="automation-words">
          <DevicePicker
            label="Device"
            devices={catalogue.devices}
            value={trigger.device_id}
            onChange={(id) =>
              onChange({
                ...base,
                device_id: id,
                property: readable(catalogue.devices.find((each) => each.id === id))[0]?.property ?? '',
              })
            }
          />{' '}
          <PropertyPicker
            label="Property"
            capabilities={readable(device)}
            value={trigger.property}
            onChange={(property) => onChange({ ...base, property })}
          />{' '}
          <select
            className="select"
            aria-label="Comparison"
            value={comparison}
            onChange={(e) => {
              const next = e.target.value as Comparison;
              onChange(
                next === 'changes' ? base : next === 'to' ? { ...base, to: '' } : { ...base, [next]: 0 },
              );
            }}
          >
            <option value="to">{M.becomes}</option>
            <option value="above">{M.risesAbove}</option>
            <option value="below">{M.fallsBelow}</option>
            <option value="changes">{M.changes}</option>
          </select>{' '}
          {comparison === 'to' && (
            <ValueField
              label={M.value}
              capability={capability}
              value={trigger.to}
              onChange={(to) => onChange({ ...base, to })}
            />
          )}
          {(comparison === 'above' || comparison === 'below') && (
            <NumberField
              label={M.value}
              value={trigger[comparison]}
              onChange={(number) =>
                onChange({ ...base, ...(number !== undefined ? { [comparison]: number } : {}) })
              }
            />
          )}{' '}
          {M.forAtLeast}{' '}
          <NumberField
            label={M.forAtLeast}
            min={0}
            value={trigger.for_seconds === undefined ? undefined : trigger.for_seconds / 60}
            onChange={(minutes) => {
              const { for_seconds: _, ...rest } = trigger;
              onChange(minutes ? { ...rest, for_seconds: Math.round(minutes * 60) } : rest);
            }}
          />{' '}
          {M.minutes}
        </span>
      );
    }
    case 'event': {
      const capability = capabilityOf(device, 'action');
      return (
        <span className="automation-words">
          <DevicePicker
            label="Device"
            devices={catalogue.devices.filter((each) => capabilityOf(each, 'action'))}
            value={trigger.device_id}
            onChange={(id) => onChange({ ...trigger, device_id: id })}
          />{' '}
          sends{' '}
          <ValueField
            label={M.value}
            capability={capability}
            value={trigger.value}
            onChange={(value) => onChange({ ...trigger, value: String(value) })}
          />
        </span>
      );
    }
    case 'availability':
      return (
        <span className="automation-words">
          <DevicePicker
            label="Device"
            devices={catalogue.devices}
            value={trigger.device_id}
            onChange={(id) => onChange({ ...trigger, device_id: id })}
          />{' '}
          <select
            className="select"
            aria-label="Online"
            value={String(trigger.online)}
            onChange={(e) => onChange({ ...trigger, online: e.target.value === 'true' })}
          >
            <option value="false">goes offline</option>
            <option value="true">comes back online</option>
          </select>
        </span>
      );
    case 'start':
      return <span className="automation-words">Hearth starts</span>;
  }
}

export function ConditionEditor({
  condition,
  catalogue,
  onChange,
}: {
  condition: AutomationCondition;
  catalogue: Catalogue;
  onChange(next: AutomationCondition): void;
}) {
  switch (condition.type) {
    case 'state': {
      const device = catalogue.devices.find((each) => each.id === condition.device_id);
      const capability = capabilityOf(device, condition.property);
      const comparison =
        condition.above !== undefined ? 'above' : condition.below !== undefined ? 'below' : 'equals';
      const base = { type: 'state' as const, device_id: condition.device_id, property: condition.property };
      return (
        <span className="automation-words">
          <DevicePicker
            label="Device"
            devices={catalogue.devices}
            value={condition.device_id}
            onChange={(id) =>
              onChange({
                ...base,
                device_id: id,
                property: readable(catalogue.devices.find((each) => each.id === id))[0]?.property ?? '',
                equals: '',
              })
            }
          />{' '}
          <PropertyPicker
            label="Property"
            capabilities={readable(device)}
            value={condition.property}
            onChange={(property) => onChange({ ...base, property, equals: '' })}
          />{' '}
          <select
            className="select"
            aria-label="Comparison"
            value={comparison}
            onChange={(e) =>
              onChange(
                e.target.value === 'equals' ? { ...base, equals: '' } : { ...base, [e.target.value]: 0 },
              )
            }
          >
            <option value="equals">{M.is}</option>
            <option value="above">{M.isAbove}</option>
            <option value="below">{M.isBelow}</option>
          </select>{' '}
          {comparison === 'equals' ? (
            <ValueField
              label={M.value}
              capability={capability}
              value={condition.equals}
              onChange={(equals) => onChange({ ...base, equals })}
            />
          ) : (
            <NumberField
              label={M.value}
              value={condition[comparison]}
              onChange={(number) => onChange({ ...base, [comparison]: number ?? 0 })}
            />
          )}
        </span>
      );
    }
    case 'time':
      return (
        <span className="automation-words">
          {M.between}{' '}
          <input
            className="input input--short"
            type="time"
            aria-label="After"
            value={condition.after ?? ''}
            onChange={(e) =>
              onChange({ ...condition, after: e.target.value || undefined } as AutomationCondition)
            }
          />{' '}
          {M.and}{' '}
          <input
            className="input input--short"
            type="time"
            aria-label="Before"
            value={condition.before ?? ''}
            onChange={(e) =>
              onChange({ ...condition, before: e.target.value || undefined } as AutomationCondition)
            }
          />{' '}
          <Weekdays
            value={condition.weekdays}
            onChange={(weekdays) => onChange({ ...condition, weekdays } as AutomationCondition)}
          />
        </span>
      );
    case 'sun':
      return (
        <span className="automation-words">
          the sun is{' '}
          <select
            className="select"
            aria-label="Sun"
            value={condition.is}
            onChange={(e) => onChange({ type: 'sun', is: e.target.value as 'up' | 'down' })}
          >
            <option value="up">up</option>
            <option value="down">down</option>
          </select>
        </span>
      );
  }
}

/** The tile's controls of the device, showing and setting the values the action will send. */
function DeviceValues({
  device,
  state,
  onChange,
}: {
  device: Device;
  state: DeviceState;
  onChange(state: DeviceState): void;
}) {
  const controls = useMemo(() => {
    const shown: Json = { ...device.state, ...state };
    if (typeof state.on === 'boolean') shown.state = state.on ? 'ON' : 'OFF';
    const view = toDevice({
      key: device.id,
      raw: { ...device, state: shown } as unknown as Json,
      hasMetadata: true,
      metadataUpdatedAt: null,
      stateUpdatedAt: null,
    });
    const settable = new Set(writable(device).map((each) => each.property));
    return deviceControls(view).filter(
      (control) => settable.has(control.property) || control.property === 'on',
    );
  }, [device, state]);
  return (
    <div className="automation-values">
      <span className="automation-values__chosen">
        {Object.keys(state).length > 0 ? `${M.chosenValues} ${stateWords(state)}` : M.noValues}
      </span>
      <div className="tile-controls">
        {controls.map((control) => (
          <ControlView
            key={control.key}
            control={control}
            disabled={false}
            onSend={(value) => {
              const command = buildCommand(control, value);
              if (command) onChange({ ...state, ...command.state });
            }}
          />
        ))}
      </div>
    </div>
  );
}

export function ActionEditor({
  action,
  catalogue,
  self,
  onChange,
}: {
  action: AutomationAction;
  catalogue: Catalogue;
  self: string | undefined;
  onChange(next: AutomationAction): void;
}) {
  switch (action.type) {
    case 'device': {
      const settable = catalogue.devices.filter(
        (each) => writable(each).length > 0 && each.access !== 'view',
      );
      const device = settable.find((each) => each.id === action.device_id);
      return (
        <span className="automation-words">
          set{' '}
          <DevicePicker
            label="Device"
            devices={settable}
            value={action.device_id}
            onChange={(id) => onChange({ type: 'device', device_id: id, state: {} })}
          />{' '}
          to
          {device && (
            <DeviceValues
              device={device}
              state={action.state}
              onChange={(state) => onChange({ ...action, state })}
            />
          )}
        </span>
      );
    }
    case 'scene':
      return (
        <span className="automation-words">
          apply{' '}
          <select
            className="select"
            aria-label="Scene"
            value={action.scene_id}
            onChange={(e) => onChange({ ...action, scene_id: e.target.value })}
          >
            <option value="">{M.pickScene}</option>
            {catalogue.scenes.map((scene) => (
              <option key={scene.id} value={scene.id}>
                {scene.name}
              </option>
            ))}
          </select>
        </span>
      );
    case 'wait':
      return (
        <span className="automation-words">
          wait{' '}
          <NumberField
            label="Seconds"
            min={1}
            value={action.seconds}
            onChange={(seconds) => onChange({ ...action, seconds: seconds ?? 1 })}
          />{' '}
          {M.seconds}
        </span>
      );
    case 'notify':
      return (
        <span className="automation-words">
          tell{' '}
          <select
            className="select"
            aria-label="Who"
            value={action.to === 'household' ? 'household' : 'people'}
            onChange={(e) => onChange({ ...action, to: e.target.value === 'household' ? 'household' : [] })}
          >
            <option value="household">{M.household}</option>
            <option value="people">{M.people}</option>
          </select>{' '}
          {action.to !== 'household' && (
            <select
              className="select"
              multiple
              aria-label={M.people}
              value={action.to as string[]}
              onChange={(e) =>
                onChange({ ...action, to: [...e.target.selectedOptions].map((option) => option.value) })
              }
            >
              {catalogue.people.map((person) => (
                <option key={person.id} value={person.id}>
                  {person.name}
                </option>
              ))}
            </select>
          )}
          <input
            className="input"
            aria-label={M.title_}
            placeholder={M.title_}
            value={action.title}
            onChange={(e) => onChange({ ...action, title: e.target.value })}
          />
          <input
            className="input"
            aria-label={M.body}
            placeholder={M.body}
            value={action.body}
            onChange={(e) => onChange({ ...action, body: e.target.value })}
          />
        </span>
      );
    case 'automation':
      return (
        <span className="automation-words">
          <select
            className="select"
            aria-label="On or off"
            value={String(action.enabled)}
            onChange={(e) => onChange({ ...action, enabled: e.target.value === 'true' })}
          >
            <option value="true">{M.enable}</option>
            <option value="false">{M.disable}</option>
          </select>{' '}
          <select
            className="select"
            aria-label="Automation"
            value={action.automation_id}
            onChange={(e) => onChange({ ...action, automation_id: e.target.value })}
          >
            <option value="">{M.pickAutomation}</option>
            {catalogue.automations
              .filter((each) => each.id !== self)
              .map((each) => (
                <option key={each.id} value={each.id}>
                  {each.name}
                </option>
              ))}
          </select>
        </span>
      );
  }
}
