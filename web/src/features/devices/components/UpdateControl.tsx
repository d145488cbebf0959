import { useContext } from 'react';
import { ACTION_WORDS, SOURCE_TEXTS } from '../devices.messages.js';
import type { Control } from '../model/controls.js';
import { isObject } from '../model/controls.js';
import { DevicesContext } from './devices-context.js';

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/**
 * docs/screens.md#devices-of-other-sources: a firmware update's installed and latest version,
 * "Installing… N %" while it runs, and "Install" for admins only (the server refuses anyone else's, 403).
 */
export function UpdateControl({
  control,
  disabled,
  name,
  onSend,
}: {
  control: Control;
  disabled: boolean;
  /** The device's name, for Install's accessible name. */
  name: string;
  onSend(value: unknown): void;
}) {
  const admin = useContext(DevicesContext)?.admin === true;
  const value = isObject(control.value) ? control.value : {};
  const installed = text(value.installed_version);
  const latest = text(value.latest_version);
  const running = value.in_progress === true;
  const percent = typeof value.update_percentage === 'number' ? Math.round(value.update_percentage) : null;
  const current = installed !== null && latest !== null && installed === latest;
  const install = control.parts?.actions?.options.find((option) => String(option.value) === 'install');
  return (
    <div className="control control-update">
      <span className="control-label">{control.label}</span>
      <span className="update-versions">
        {installed && <span>{SOURCE_TEXTS.installed(installed)}</span>}
        {running ? (
          <span role="status">{SOURCE_TEXTS.installing(percent)}</span>
        ) : current ? (
          <span>{SOURCE_TEXTS.upToDate}</span>
        ) : (
          latest && <span className="update-latest">{SOURCE_TEXTS.latest(latest)}</span>
        )}
      </span>
      {admin && install && !current && !running && (
        <button
          type="button"
          className="button button--primary button--compact"
          aria-label={SOURCE_TEXTS.installLabel(name)}
          disabled={disabled}
          onClick={() => onSend(install.value)}
        >
          {ACTION_WORDS.install}
        </button>
      )}
    </div>
  );
}
