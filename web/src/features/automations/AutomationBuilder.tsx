import {
  AUTOMATION_MODES,
  type Automation,
  type AutomationAction,
  type AutomationCondition,
  type AutomationTrigger,
  CATCH_UP_MODES,
} from '@hearth/contracts';
import { useState } from 'react';
import { type AutomationBody, automationsApi } from './automations.api.js';
import { newAction, newCondition, newTrigger } from './automations.draft.js';
import {
  ACTION_LABELS,
  CATCH_UP_LABELS,
  CONDITION_LABELS,
  AUTOMATIONS_MESSAGES as M,
  MODE_LABELS,
  TRIGGER_LABELS,
} from './automations.messages.js';
import { actionWords, conditionWords, type Names, triggerWords } from './automations.words.js';
import { ActionEditor, type Catalogue, ConditionEditor, TriggerEditor } from './PartEditors.js';

/** One list of the rule (When, If, Then): each part in words with its editor, and "Add …". */
function PartList<T extends { type: string }>({
  title,
  hint,
  parts,
  labels,
  words,
  add,
  addLabel,
  onChange,
  render,
}: {
  title: string;
  hint: string;
  parts: T[];
  labels: Record<string, string>;
  words(part: T): string;
  add(type: string): T;
  addLabel: string;
  onChange(parts: T[]): void;
  render(part: T, change: (next: T) => void): React.ReactNode;
}) {
  const [adding, setAdding] = useState('');
  const move = (from: number, to: number) => {
    const next = [...parts];
    const [part] = next.splice(from, 1);
    if (part) next.splice(to, 0, part);
    onChange(next);
  };
  return (
    <fieldset className="automation-part-list">
      <legend>
        <strong>{title}</strong> <span className="automation-hint">{hint}</span>
      </legend>
      <ol>
        {parts.map((part, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts have no ids; their place is who they are
          <li key={index} className="automation-part">
            <p className="automation-part__words">{words(part)}</p>
            <div className="automation-part__editor">
              {render(part, (next) => onChange(parts.map((each, i) => (i === index ? next : each))))}
            </div>
            <div className="automation-part__tools">
              {index > 0 && (
                <button
                  type="button"
                  className="button button--ghost button--small"
                  onClick={() => move(index, index - 1)}
                >
                  {M.moveUp}
                </button>
              )}
              <button
                type="button"
                className="button button--ghost button--small"
                onClick={() => onChange(parts.filter((_, i) => i !== index))}
              >
                {M.remove}
              </button>
            </div>
          </li>
        ))}
      </ol>
      <select
        className="select"
        aria-label={addLabel}
        value={adding}
        onChange={(e) => {
          setAdding('');
          if (e.target.value) onChange([...parts, add(e.target.value)]);
        }}
      >
        <option value="">{addLabel}</option>
        {Object.entries(labels).map(([type, label]) => (
          <option key={type} value={type}>
            {label}
          </option>
        ))}
      </select>
    </fieldset>
  );
}

/** docs/automations.md#page: the builder, in plain words; no YAML. */
export function AutomationBuilder({
  editing,
  catalogue,
  names,
  onSaved,
  onCancel,
}: {
  editing: Automation | null;
  catalogue: Catalogue;
  names: Names;
  onSaved(saved: Automation): void;
  onCancel(): void;
}) {
  const [draft, setDraft] = useState<AutomationBody>(
    editing
      ? {
          name: editing.name,
          enabled: editing.enabled,
          mode: editing.mode,
          catch_up: editing.catch_up,
          triggers: editing.triggers,
          conditions: editing.conditions,
          actions: editing.actions,
        }
      : {
          name: '',
          enabled: true,
          mode: 'single',
          catch_up: 'skip',
          triggers: [],
          conditions: [],
          actions: [],
        },
  );
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const change = (part: Partial<AutomationBody>) => setDraft((before) => ({ ...before, ...part }));

  const save = async () => {
    setSaving(true);
    setError(null);
    const result = editing
      ? await automationsApi.update(editing.id, draft)
      : await automationsApi.create(draft);
    setSaving(false);
    if (result.success) onSaved(result.data);
    else setError(result.error ?? M.saved);
  };

  return (
    <section className="automation-builder" aria-labelledby="automation-builder-title">
      <h2 id="automation-builder-title">{editing ? M.builderEdit : M.builderNew}</h2>
      <label className="automation-name">
        {M.name}
        <input className="input" value={draft.name} onChange={(e) => change({ name: e.target.value })} />
      </label>
      <PartList<AutomationTrigger>
        title={M.when}
        hint={M.whenHint}
        parts={draft.triggers}
        labels={TRIGGER_LABELS}
        words={(part) => `When ${triggerWords(part, names)}`}
        add={(type) => newTrigger(type as AutomationTrigger['type'], catalogue.devices)}
        addLabel={M.addTrigger}
        onChange={(triggers) => change({ triggers })}
        render={(part, next) => <TriggerEditor trigger={part} catalogue={catalogue} onChange={next} />}
      />
      <PartList<AutomationCondition>
        title={M.if}
        hint={M.ifHint}
        parts={draft.conditions}
        labels={CONDITION_LABELS}
        words={(part) => `If ${conditionWords(part, names)}`}
        add={(type) => newCondition(type as AutomationCondition['type'], catalogue.devices)}
        addLabel={M.addCondition}
        onChange={(conditions) => change({ conditions })}
        render={(part, next) => <ConditionEditor condition={part} catalogue={catalogue} onChange={next} />}
      />
      <PartList<AutomationAction>
        title={M.thenTitle}
        hint={M.thenHint}
        parts={draft.actions}
        labels={ACTION_LABELS}
        words={(part) => `Then ${actionWords(part, names)}`}
        add={(type) => newAction(type as AutomationAction['type'], catalogue.devices)}
        addLabel={M.addAction}
        onChange={(actions) => change({ actions })}
        render={(part, next) => (
          <ActionEditor action={part} catalogue={catalogue} self={editing?.id} onChange={next} />
        )}
      />
      <div className="automation-options">
        <label>
          {M.mode}{' '}
          <select
            className="select"
            value={draft.mode}
            onChange={(e) => change({ mode: e.target.value as AutomationBody['mode'] })}
          >
            {AUTOMATION_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {MODE_LABELS[mode]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {M.catchUp}{' '}
          <select
            className="select"
            value={draft.catch_up}
            onChange={(e) => change({ catch_up: e.target.value as AutomationBody['catch_up'] })}
          >
            {CATCH_UP_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {CATCH_UP_LABELS[mode]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error && (
        <p className="automation-error" role="alert">
          {error}
        </p>
      )}
      <div className="automation-builder__actions">
        <button type="button" className="button button--secondary" onClick={onCancel}>
          {M.cancel}
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={saving}
          onClick={() => void save()}
        >
          {M.save}
        </button>
      </div>
    </section>
  );
}
