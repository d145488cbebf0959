import { normaliseColour } from './colour.js';
import { type Control, isObject, readToggle } from './controls.js';
import type { Json } from './device.types.js';
import { formatNumber } from './format.js';

/**
 * What the user is editing in a composite or list control before Apply: the value it would send,
 * built from the device's state and changed field by field. An unset field is `undefined` and
 * left out of what is sent (Zigbee2MQTT keeps or defaults it).
 */
export type Draft = unknown;

const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The draft of a control from a value as the device reports it; undefined when it holds none. */
export function draftOf(control: Control, raw: unknown): Draft {
  switch (control.kind) {
    case 'toggle':
      return readToggle(control, raw) ?? undefined;
    case 'slider':
    case 'number':
      return finite(raw);
    case 'select':
      return control.options.some((option) => String(option.value) === String(raw)) ? raw : undefined;
    case 'text':
      return typeof raw === 'string' ? raw : undefined;
    case 'color':
      return normaliseColour(raw) ?? undefined;
    case 'composite': {
      if (!isObject(raw)) return undefined;
      const draft: Json = {};
      for (const field of control.fields ?? []) {
        const value = draftOf(field, raw[field.property]);
        if (value !== undefined) draft[field.property] = value;
      }
      return Object.keys(draft).length > 0 ? draft : undefined;
    }
    case 'list': {
      if (!Array.isArray(raw) || !control.item) return undefined;
      const item = control.item;
      return raw.map((entry) => draftOf(item, entry) ?? emptyItem(item));
    }
  }
}

/** A new item of a list: an empty object for a composite, else nothing yet. */
export const emptyItem = (item: Control): Draft => (item.kind === 'composite' ? {} : undefined);

/** What the control starts from: the device's value, or a list with its least number of items. */
export function startDraft(control: Control): Draft {
  const draft = draftOf(control, control.value);
  if (draft !== undefined || control.kind !== 'list' || !control.item) return draft;
  return Array.from({ length: control.minItems ?? 0 }, () => emptyItem(control.item!));
}

/** The draft with one field set (or unset). */
export function setField(draft: Draft, field: Control, value: Draft): Json {
  const next: Json = { ...(isObject(draft) ? draft : {}) };
  if (value === undefined || (isObject(value) && Object.keys(value).length === 0))
    delete next[field.property];
  else next[field.property] = value;
  return next;
}

const bounds = (control: Control) => {
  const min = Number.isFinite(control.min) ? formatNumber(control.min) : null;
  const max = Number.isFinite(control.max) ? formatNumber(control.max) : null;
  if (min !== null && max !== null) return `between ${min} and ${max}`;
  return min !== null ? `at least ${min}` : `at most ${max}`;
};

/**
 * Why the draft can't be sent (e.g. "Duration must be at least 0"), or null. An unset value is
 * fine in a composite (left out) but not as a list item.
 */
export function draftProblem(control: Control, draft: Draft, required = false): string | null {
  const { label } = control;
  if (draft === undefined || draft === '') return required ? `${label} is required` : null;
  switch (control.kind) {
    case 'slider':
    case 'number': {
      if (typeof draft !== 'number' || !Number.isFinite(draft)) return `${label} must be a number`;
      return draft < control.min || draft > control.max ? `${label} must be ${bounds(control)}` : null;
    }
    case 'composite': {
      if (!isObject(draft)) return `${label} is required`;
      for (const field of control.fields ?? []) {
        const problem = draftProblem(field, draft[field.property]);
        if (problem) return problem;
      }
      return required && Object.keys(draft).length === 0 ? `${label} is required` : null;
    }
    case 'list': {
      if (!Array.isArray(draft) || !control.item) return `${label} is required`;
      if (control.minItems !== undefined && draft.length < control.minItems)
        return `${label} needs at least ${control.minItems}`;
      if (control.maxItems !== undefined && draft.length > control.maxItems)
        return `${label} takes at most ${control.maxItems}`;
      for (const [index, entry] of draft.entries()) {
        const problem = draftProblem(
          { ...control.item, label: `${control.item.label} ${index + 1}` },
          entry,
          true,
        );
        if (problem) return problem;
      }
      return null;
    }
    default:
      return null;
  }
}

/** Whether Apply sends anything: a composite with at least one field set, a list. */
export const draftReady = (control: Control, draft: Draft): boolean =>
  control.kind === 'list' ? Array.isArray(draft) : isObject(draft) && Object.keys(draft).length > 0;
