import { useState } from 'react';
import { type Control, VISIBLE_ITEMS } from '../model/controls.js';
import { ControlView } from './ControlView.js';
import { ShowMore } from './ShowMore.js';

export function TileControls({
  controls,
  disabled,
  onSend,
  describedBy,
  deviceName,
}: {
  controls: Control[];
  /** The device's name (an update's Install names it). */
  deviceName?: string;
  disabled: boolean;
  onSend(control: Control, value: unknown): void;
  /** The id of what says why every control is disabled for good ("View only"). */
  describedBy?: string | undefined;
}) {
  const [expanded, setExpanded] = useState(false);
  if (controls.length === 0) return null;
  const shown = expanded ? controls : controls.slice(0, VISIBLE_ITEMS);
  return (
    <div className="tile-controls" role={describedBy ? 'group' : undefined} aria-describedby={describedBy}>
      {shown.map((control) => (
        <ControlView
          key={control.key}
          control={control}
          disabled={disabled}
          onSend={(value) => onSend(control, value)}
          {...(deviceName ? { deviceName } : {})}
        />
      ))}
      <ShowMore
        total={controls.length}
        expanded={expanded}
        fewerLabel="Show fewer controls"
        onToggle={() => setExpanded(!expanded)}
      />
    </div>
  );
}
