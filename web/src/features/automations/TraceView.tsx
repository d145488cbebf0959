import type { Automation, AutomationRun } from '@hearth/contracts';
import { AUTOMATIONS_MESSAGES as M, RUN_STATUS_LABELS, RUN_STATUS_TONES } from './automations.messages.js';
import { actionWords, conditionWords, type Names } from './automations.words.js';

const time = (iso: string) => new Date(iso).toLocaleString();

/** What a step was, in words: the condition or action at its place, else its kind. */
function stepWords(step: AutomationRun['steps'][number], automation: Automation, names: Names): string {
  if (step.kind === 'condition' && step.index !== undefined) {
    const condition = automation.conditions[step.index];
    if (condition) return `If ${conditionWords(condition, names)}`;
  }
  if (step.index !== undefined && step.kind !== 'condition') {
    const action = automation.actions[step.index];
    if (action) return actionWords(action, names);
  }
  return step.kind;
}

/** docs/automations.md#trace: the last 50 runs, newest first: trigger, each condition and action. */
export function TraceView({
  automation,
  runs,
  names,
}: {
  automation: Automation;
  runs: AutomationRun[] | null;
  names: Names;
}) {
  if (runs === null) return <div className="automation-trace" aria-busy="true" />;
  if (runs.length === 0) return <p className="automation-trace automation-empty">{M.noRuns}</p>;
  return (
    <ol className="automation-trace" aria-label={M.trace}>
      {runs.map((run) => (
        <li key={run.id} className="automation-run" data-run-status={run.status}>
          <div className="automation-run__head">
            <span className={`pill ${RUN_STATUS_TONES[run.status]}`}>{RUN_STATUS_LABELS[run.status]}</span>
            <span className="automation-run__trigger">{run.trigger.description}</span>
            <time dateTime={run.started_at}>{time(run.started_at)}</time>
          </div>
          <ol className="automation-run__steps">
            {run.steps.map((step) => (
              <li
                key={`${step.at}-${step.kind}-${step.index ?? ''}-${step.result}`}
                className={step.error ? 'automation-step automation-step--failed' : 'automation-step'}
              >
                <span>{stepWords(step, automation, names)}</span> <strong>{step.result}</strong>
                {step.error && <span className="automation-step__error"> — {step.error}</span>}
                <time dateTime={step.at}> {new Date(step.at).toLocaleTimeString()}</time>
              </li>
            ))}
          </ol>
        </li>
      ))}
    </ol>
  );
}
