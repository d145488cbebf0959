import { Ellipsis } from 'lucide-react';
import { forwardRef, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useFlipUp } from '../../../shared/ui/use-flip-up.js';
import { TILE_TEXTS } from '../devices.messages.js';

/**
 * docs/screens.md#device-tile: the tile's menu ("…", "Options for {name}"): what a household
 * uses now and then (rename, history, its room, the favourite star, recording, access) behind
 * one tab stop, so the tile itself is its switch, its controls and this button. A disclosure:
 * the panel holds ordinary buttons and links, each keeping its own name and keys; Escape or a
 * press outside closes it (not while a dialog opened from it is up) and gives the focus back.
 *
 * The panel stays mounted while closed (hidden), so a dialog opened from it outlives a close.
 */
export const TileMenu = forwardRef<HTMLButtonElement, { name: string; children: ReactNode }>(
  function TileMenu({ name, children }, ref) {
    const [open, setOpen] = useState(false);
    const root = useRef<HTMLDivElement>(null);
    const button = useRef<HTMLButtonElement | null>(null);
    const panel = useRef<HTMLDivElement>(null);
    const up = useFlipUp(panel, open);
    const panelId = useId();

    useEffect(() => {
      if (!open) return;
      const onDown = (event: MouseEvent) => {
        const target = event.target as Element;
        // A dialog opened from the menu (History…, Access…) sits outside it, on top.
        if (root.current?.contains(target) || target.closest?.('.dialog-backdrop')) return;
        setOpen(false);
      };
      document.addEventListener('mousedown', onDown);
      return () => document.removeEventListener('mousedown', onDown);
    }, [open]);

    return (
      // biome-ignore lint/a11y/noStaticElementInteractions: Escape from anything inside the panel bubbles here.
      <div
        className={`tile-menu${open ? ' is-open' : ''}`}
        ref={root}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && open && !event.defaultPrevented) {
            event.stopPropagation();
            setOpen(false);
            button.current?.focus();
          }
        }}
        // A choice in the panel that is done with it (Rename, a room, the star) closes it.
        onClickCapture={(event) => {
          const chosen = (event.target as Element).closest('[data-closes-menu]');
          if (chosen && root.current?.contains(chosen)) setOpen(false);
        }}
      >
        <button
          ref={(element) => {
            button.current = element;
            if (typeof ref === 'function') ref(element);
            else if (ref) ref.current = element;
          }}
          type="button"
          className="icon-button icon-button--bare tile-menu-button"
          aria-label={TILE_TEXTS.menu(name)}
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
        >
          <Ellipsis size={18} aria-hidden="true" />
        </button>
        <div
          ref={panel}
          className={`popover tile-menu-panel${up ? ' is-above' : ''}`}
          id={panelId}
          hidden={!open}
        >
          {children}
        </div>
      </div>
    );
  },
);
