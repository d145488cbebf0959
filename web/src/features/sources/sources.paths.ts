/** docs/screens.md#sources: the admins' Sources page (under Devices; its link beside the Devices page's title). */
export const SOURCES_PATH = '/devices/sources';
