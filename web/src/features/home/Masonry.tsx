import { Children, type ReactNode, useSyncExternalStore } from 'react';

/** Columns for the width the page gets (the permanent sidebar takes 248 px from 1400 px on). */
export function columnsFor(viewportWidth: number): number {
  const main = viewportWidth >= 1400 ? viewportWidth - 248 : viewportWidth;
  if (main >= 1400) return 4;
  if (main >= 940) return 3;
  if (main >= 600) return 2;
  return 1;
}

const subscribe = (onChange: () => void) => {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
};
const viewportColumns = () => columnsFor(window.innerWidth);

/**
 * A masonry grid of flex columns, tiles dealt left to right. Cheaper to lay out than CSS
 * multi-column (no balancing passes), and known on the first render, so nothing jumps.
 */
export function Masonry({ children }: { children: ReactNode }) {
  const count = useSyncExternalStore(subscribe, viewportColumns, () => 1);
  const columns: ReactNode[][] = Array.from({ length: count }, () => []);
  Children.toArray(children).forEach((child, index) => {
    columns[index % count]!.push(child);
  });
  return (
    <div className="masonry">
      {columns.map((column, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a column is its position
        <div key={index} className="masonry-column">
          {column}
        </div>
      ))}
    </div>
  );
}
