import { type RefObject, useEffect, useRef } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Open traps, innermost last: only the innermost one handles Tab and Escape. */
const traps: object[] = [];

/**
 * While `active`, Tab and Shift+Tab cycle inside `ref`, Escape calls onEscape, and focus goes
 * back to whatever had it before when the trap ends. Traps nest: a dialog opened from a dialog
 * takes the keys until it closes.
 */
export function useFocusTrap(ref: RefObject<HTMLElement | null>, active: boolean, onEscape?: () => void) {
  const onEscapeRef = useRef(onEscape);
  onEscapeRef.current = onEscape;
  useEffect(() => {
    if (!active) return;
    const trap = {};
    traps.push(trap);
    const previous = document.activeElement as HTMLElement | null;
    const root = ref.current;
    if (root && !root.contains(document.activeElement)) {
      const autofocus =
        root.querySelector<HTMLElement>('[data-autofocus]') ?? root.querySelector<HTMLElement>(FOCUSABLE);
      (autofocus ?? root).focus();
    }
    const onKeyDown = (event: KeyboardEvent) => {
      const container = ref.current;
      if (!container || traps.at(-1) !== trap) return;
      if (event.key === 'Escape' && onEscapeRef.current) {
        event.stopPropagation();
        onEscapeRef.current();
        return;
      }
      if (event.key !== 'Tab') return;
      const items = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (el) => el.offsetParent !== null || el === document.activeElement,
      );
      if (items.length === 0) {
        event.preventDefault();
        return;
      }
      const first = items[0]!;
      const last = items[items.length - 1]!;
      const inside = container.contains(document.activeElement);
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => {
      document.removeEventListener('keydown', onKeyDown, true);
      traps.splice(traps.indexOf(trap), 1);
      if (previous && document.contains(previous)) previous.focus();
    };
  }, [ref, active]);
}

let locks = 0;
let saved = { overflow: '', paddingRight: '' };

/**
 * Locks page scrolling while `active` (docs/screens.md#auth-modal), without the layout jumping by a scrollbar.
 * Counted, so nested dialogs release it only when the last one closes.
 */
export function useScrollLock(active: boolean) {
  useEffect(() => {
    if (!active) return;
    if (locks++ === 0) {
      const { overflow, paddingRight } = document.body.style;
      saved = { overflow, paddingRight };
      const scrollbar = window.innerWidth - document.documentElement.clientWidth;
      document.body.style.overflow = 'hidden';
      if (scrollbar > 0) document.body.style.paddingRight = `${scrollbar}px`;
    }
    return () => {
      if (--locks === 0) {
        document.body.style.overflow = saved.overflow;
        document.body.style.paddingRight = saved.paddingRight;
      }
    };
  }, [active]);
}
