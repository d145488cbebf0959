import { ChevronDown, ChevronRight } from 'lucide-react';
import { useCallback, useSyncExternalStore } from 'react';
import { RoomIcon } from '../../rooms/RoomIcon.js';
import { SceneButtons } from '../../scenes/SceneButtons.js';
import { sectionCounts, TOOLBAR } from '../devices.messages.js';
import type { RoomSection } from '../model/sections.js';
import type { DeviceStore } from '../store/device-store.js';
import { useDevicesContext } from './devices-context.js';
import { RoomActions } from './RoomActions.js';

/** The section's counts, live: re-read when one of its devices changes (only mounted headings listen). */
function useSectionCounts(store: DeviceStore, ids: string[]) {
  const subscribe = useCallback(
    (listener: () => void) => {
      const stops = ids.map((id) => store.subscribeDevice(id, listener));
      return () => {
        for (const stop of stops) stop();
      };
    },
    [store, ids],
  );
  const counts = useSyncExternalStore(subscribe, () => {
    let on = 0;
    let offline = 0;
    for (const id of ids) {
      const device = store.getDevice(id);
      if (!device) continue;
      if (device.toggleState === true) on++;
      if (!device.online) offline++;
    }
    return `${on}|${offline}`;
  });
  const [on, offline] = counts.split('|').map(Number) as [number, number];
  return sectionCounts(ids.length, on, offline);
}

interface HeadingProps {
  section: RoomSection;
  collapsed: boolean;
  onToggle(key: string): void;
}

/** docs/screens.md#group-by-room: a room's heading: collapse button with icon and name, counts, room actions. */
export function RoomSectionHeading({ section, collapsed, onToggle }: HeadingProps) {
  const { store, manager = true } = useDevicesContext();
  const counts = useSectionCounts(store, section.ids);
  const name = section.room?.name ?? TOOLBAR.unassigned;
  const Chevron = collapsed ? ChevronRight : ChevronDown;
  return (
    <div className="room-section-heading" data-section={section.key}>
      <h2>
        <button
          type="button"
          className="room-section-toggle"
          aria-expanded={!collapsed}
          onClick={() => onToggle(section.key)}
        >
          <Chevron size={18} aria-hidden="true" />
          {section.room && <RoomIcon icon={section.room.icon} />}
          <span>{name}</span>
        </button>
      </h2>
      <span className="room-section-counts">{counts}</span>
      {section.room && manager && <RoomActions room={section.room} />}
      {section.room && manager && <SceneButtons roomId={section.room.id} deviceIds={section.ids} />}
    </div>
  );
}
