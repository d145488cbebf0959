import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { Fragment, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { TOOLBAR } from '../devices.messages.js';
import { useCollapsedSections } from '../hooks/use-collapsed-sections.js';
import { type FloorGroup, type GridRow, gridRows } from '../model/sections.js';
import { DeviceTile } from './DeviceTile.js';
import { RoomSectionHeading } from './RoomSectionHeading.js';

/** Up to this many devices every tile is in the DOM (find-in-page works); beyond it rows are virtualised. */
export const FULL_RENDER_LIMIT = 60;
export const TILE_MIN_WIDTH = 300;
export const GRID_GAP = 16;
const ESTIMATED_ROW_HEIGHT = 280;
const ESTIMATED_HEADING_HEIGHT = 56;

export const columnsFor = (width: number) =>
  Math.max(1, Math.floor((width + GRID_GAP) / (TILE_MIN_WIDTH + GRID_GAP)));

interface DeviceGridProps {
  ids: string[];
  groups?: FloorGroup[] | null;
  /**
   * Only the first screen's devices are known (the whole list is loading): they are virtualised
   * whatever their count, so the first paint mounts the visible tiles, not all of them.
   */
  partial?: boolean;
}

/**
 * The tiles, or with `groups` (docs/screens.md#group-by-room) the room sections; virtualised
 * beyond FULL_RENDER_LIMIT devices and while the list is partial.
 */
export function DeviceGrid({ ids, groups, partial = false }: DeviceGridProps) {
  if (groups) return <GroupedGrid groups={groups} count={ids.length} partial={partial} />;
  if (ids.length <= FULL_RENDER_LIMIT && !partial) {
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

function FloorHeading({ group }: { group: FloorGroup }) {
  return <h2 className="floor-heading">{group.floor?.name ?? TOOLBAR.withoutFloor}</h2>;
}

function GroupedGrid({ groups, count, partial }: { groups: FloorGroup[]; count: number; partial: boolean }) {
  const { collapsed, toggle } = useCollapsedSections();
  if (count > FULL_RENDER_LIMIT || partial)
    return <VirtualGroupedGrid groups={groups} collapsed={collapsed} toggle={toggle} />;
  return (
    <div className="room-sections">
      {groups.map((group) => (
        <Fragment key={group.key}>
          {group.heading && <FloorHeading group={group} />}
          {group.sections.map((section) => {
            const closed = collapsed.has(section.key);
            return (
              <section
                key={section.key}
                className="room-section"
                aria-label={section.room?.name ?? TOOLBAR.unassigned}
              >
                <RoomSectionHeading section={section} collapsed={closed} onToggle={toggle} />
                {!closed &&
                  (section.ids.length === 0 ? (
                    <p className="room-section-empty">{TOOLBAR.emptyRoom}</p>
                  ) : (
                    <div className="device-grid">
                      {section.ids.map((id) => (
                        <DeviceTile key={id} deviceKey={id} />
                      ))}
                    </div>
                  ))}
              </section>
            );
          })}
        </Fragment>
      ))}
    </div>
  );
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

interface VirtualGroupedProps {
  groups: FloorGroup[];
  collapsed: ReadonlySet<string>;
  toggle(key: string): void;
}

/** The sections as rows of one window virtualiser: floor and room headings are rows like the tiles' rows. */
function VirtualGroupedGrid({ groups, collapsed, toggle }: VirtualGroupedProps) {
  const ref = useRef<HTMLDivElement>(null);
  const columns = columnsFor(useWidth(ref));
  const rows = useMemo(() => gridRows(groups, columns, collapsed), [groups, columns, collapsed]);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: (index) =>
      rows[index]?.kind === 'tiles' ? ESTIMATED_ROW_HEIGHT : ESTIMATED_HEADING_HEIGHT,
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 3,
    gap: GRID_GAP,
    scrollMargin: ref.current?.offsetTop ?? 0,
  });
  const offset = virtualizer.options.scrollMargin;
  return (
    <div
      ref={ref}
      className="device-grid-virtual room-sections"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index] as GridRow;
        return (
          <div
            key={item.key}
            data-index={item.index}
            ref={virtualizer.measureElement}
            className={row.kind === 'tiles' ? 'device-grid-row' : 'device-grid-heading'}
            style={{
              transform: `translateY(${item.start - offset}px)`,
              ...(row.kind === 'tiles' ? { gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` } : {}),
            }}
          >
            {row.kind === 'floor' && <FloorHeading group={row.group} />}
            {row.kind === 'section' && (
              <RoomSectionHeading section={row.section} collapsed={row.collapsed} onToggle={toggle} />
            )}
            {row.kind === 'empty' && <p className="room-section-empty">{TOOLBAR.emptyRoom}</p>}
            {row.kind === 'tiles' && row.ids.map((id) => <DeviceTile key={id} deviceKey={id} />)}
          </div>
        );
      })}
    </div>
  );
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
