import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * Whether a popover that opens below its anchor should open above it instead: when it does not fit
 * below in the window and there is more room above (the last tile of a page, a menu near the
 * bottom edge). Measured each time it opens; its anchor is its offset parent.
 */
export function useFlipUp(popover: RefObject<HTMLElement | null>, open: boolean): boolean {
  const [up, setUp] = useState(false);
  useLayoutEffect(() => {
    if (!open) {
      setUp(false);
      return;
    }
    const element = popover.current;
    const anchor = element?.parentElement;
    if (!element || !anchor) return;
    const { height } = element.getBoundingClientRect();
    const { top, bottom } = anchor.getBoundingClientRect();
    const below = window.innerHeight - bottom;
    setUp(height > below && top > below);
  }, [open, popover]);
  return up;
}
