import { VISIBLE_ITEMS } from '../model/controls.js';

/** docs/screens.md#devices-page: the first 5 items, then "Show N more" / "Show fewer …". */
export function ShowMore({
  total,
  expanded,
  fewerLabel,
  onToggle,
}: {
  total: number;
  expanded: boolean;
  fewerLabel: string;
  onToggle(): void;
}) {
  if (total <= VISIBLE_ITEMS) return null;
  return (
    <button type="button" className="link-button" onClick={onToggle}>
      {expanded ? fewerLabel : `Show ${total - VISIBLE_ITEMS} more`}
    </button>
  );
}
