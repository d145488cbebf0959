import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useRef, useState } from 'react';
import { DeviceTile } from './DeviceTile.js';

/** Up to this many devices every tile is in the DOM (find-in-page works); beyond it rows are virtualised. */
export const FULL_RENDER_LIMIT = 60;
export const TILE_MIN_WIDTH = 300;
export const GRID_GAP = 16;
const ESTIMATED_ROW_HEIGHT = 280;

export const columnsFor = (width: number) =>
  Math.max(1, Math.floor((width + GRID_GAP) / (TILE_MIN_WIDTH + GRID_GAP)));

export function DeviceGrid({ ids }: { ids: string[] }) {
  if (ids.length <= FULL_RENDER_LIMIT) {
    return (
      <div className="device-grid">
        {ids.map((id) => (
          <DeviceTile key={id} deviceKey={id} />
        ))}
      </div>
    );
  }
  return <VirtualGrid ids={ids} />;
}

function useWidth(ref: React.RefObject<HTMLElement | null>) {
  const [width, setWidth] = useState(1024);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(([entry]) => entry && setWidth(entry.contentRect.width));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** Rows of tiles (responsive column count) on the page's own scroll; only visible rows are mounted. */
function VirtualGrid({ ids }: { ids: string[] }) {
  const ref = useRef<HTMLDivElement>(null);
  const columns = columnsFor(useWidth(ref));
  const rows = Math.ceil(ids.length / columns);
  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => ESTIMATED_ROW_HEIGHT,
    overscan: 2,
    gap: GRID_GAP,
    scrollMargin: ref.current?.offsetTop ?? 0,
  });
  const items = virtualizer.getVirtualItems();
  const offset = virtualizer.options.scrollMargin;
  return (
    <div ref={ref} className="device-grid-virtual" style={{ height: virtualizer.getTotalSize() }}>
      {items.map((row) => (
        <div
          key={row.key}
          data-index={row.index}
          ref={virtualizer.measureElement}
          className="device-grid-row"
          style={{
            transform: `translateY(${row.start - offset}px)`,
            gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
          }}
        >
          {ids.slice(row.index * columns, row.index * columns + columns).map((id) => (
            <DeviceTile key={id} deviceKey={id} />
          ))}
        </div>
      ))}
    </div>
  );
}
