/** GET /api/config: what the web app learns from the server before it talks to the device hub. */
export interface ClientConfig {
  /** The server's DEVICEHUB_TOPIC_PREFIX: the stream's topics live under `{prefix}/devicehub/`. */
  devicehub_topic_prefix: string;
}
