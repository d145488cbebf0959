/**
 * What the `notify` action and the loop breaker tell people through (docs/automations.md#notify).
 * app.ts wires it to the notifications domain, or to the activity log alone.
 */
export interface AutomationMessage {
  /** `household`: every resident and admin; `admins`; or these people (ids). */
  to: 'household' | 'admins' | readonly string[];
  title: string;
  body: string;
  /** Which automation and run it comes from (a run's message has one id: it is sent once). */
  automation: { id: string; name: string; owner: { id: string; label: string } };
  id: string;
}

export interface Notifier {
  notify(message: AutomationMessage): Promise<void>;
}
