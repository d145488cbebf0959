import { loadable } from '../../shared/ui/loadable.js';

/** The recording-settings dialog, fetched when first opened (the tile's and the history page's). */
export const RecordingDialog = loadable(() => import('./RecordingDialog.js'));
