import { loadable } from '../../shared/ui/loadable.js';

// docs/screens.md#auth-modal: the sign-in, sign-up, two-factor and forgot-password forms load
// when first wanted, not on every boot: a signed-in household never uses them, and a visitor's
// first screen draws without them (bench/web.bench.mjs).
export const AuthModal = loadable(() => import('./AuthModal.js'));

/**
 * Props for a button that opens the auth modal: its code starts loading the moment a pointer
 * comes over the button, presses it or focus reaches it, so it is there by the click. A failed
 * download is tried again when the modal is drawn.
 */
const fetchAhead = () => void AuthModal.preload().catch(() => {});
export const loadsAuthModal = { onPointerEnter: fetchAhead, onPointerDown: fetchAhead, onFocus: fetchAhead };
