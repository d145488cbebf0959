/** Tables of the device hub (the device registry), added by migration 0003. */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the device hub
export interface DevicehubTables {}
