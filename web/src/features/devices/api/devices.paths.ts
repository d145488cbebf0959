// The device list's addresses, apart from devices.api.ts so the boot (app/boot-requests.ts) can
// send its requests without loading the messages and calls that read the answers.

/** How many devices the first screen shows at most (fetched before the whole list). */
export const FIRST_SCREEN = 30;

/** The most devices one `?ids=` request may name (the server's limit). */
export const BY_IDS_LIMIT = 100;

/** The path of GET /api/devicehub/devices?ids=… for the first BY_IDS_LIMIT of these ids. */
export const devicesByIdsPath = (ids: readonly string[]) =>
  `/api/devicehub/devices?ids=${ids.slice(0, BY_IDS_LIMIT).map(encodeURIComponent).join(',')}`;
