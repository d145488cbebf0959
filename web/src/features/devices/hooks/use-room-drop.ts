import { useState } from 'react';
import type { AssignTarget } from '../../rooms/assign.js';
import { useDevicesContext } from '../components/devices-context.js';
import { carriesDevices, DRAG_TYPE, droppedIds } from '../model/drag.js';
import { useMoveDevices } from './use-assign.js';

/**
 * docs/rooms.md#drag-and-drop: spread `props` on any element to make it a drop target for dragged
 * tiles (the drop bar's rooms; a room section's heading could take the same). `over` is true
 * while tiles are held over it. A drop moves every dragged device with one call and, after a
 * selection was dragged, leaves the selection.
 */
export function useRoomDrop(target: AssignTarget) {
  const { selection } = useDevicesContext();
  const move = useMoveDevices();
  const [over, setOver] = useState(false);
  return {
    over,
    props: {
      onDragEnter: (event: React.DragEvent) => {
        if (carriesDevices(event.dataTransfer)) setOver(true);
      },
      onDragOver: (event: React.DragEvent) => {
        if (!carriesDevices(event.dataTransfer)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
      },
      onDragLeave: () => setOver(false),
      onDrop: (event: React.DragEvent) => {
        setOver(false);
        const ids = droppedIds(event.dataTransfer.getData(DRAG_TYPE));
        if (ids.length === 0) return;
        event.preventDefault();
        void move(target, ids).then((error) => {
          if (!error && ids.length > 1) selection?.stop();
        });
      },
    },
  };
}
