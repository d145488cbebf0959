/** The Web Push subscriptions table, added by migration 0022 (docs/alerts.md#web-push). */
export interface PushSubscriptionsTable {
  endpoint: string;
  user_id: string;
  /** The browser's P-256 public key and auth secret, base64url. */
  p256dh: string;
  auth: string;
  created_at: string;
}

export interface PushTables {
  push_subscriptions: PushSubscriptionsTable;
}
