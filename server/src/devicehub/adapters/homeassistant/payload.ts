import { type Prepared, prepare } from './templates.js';

/**
 * One message as templates see it: `value` (the payload as text; latin1 bytes for a config with
 * `encoding: ""`) and `value_json` (parsed when it is JSON); each converted for templates once,
 * for every entity on the topic.
 */
export class Payload {
  private parsed: unknown;
  private parsedOnce = false;
  private forText: Record<string, Prepared> | undefined;
  private forBytes: Record<string, Prepared> | undefined;

  constructor(
    readonly raw: Buffer,
    readonly text = raw.toString('utf8'),
  ) {}

  /** The payload as JSON, or undefined when it is not JSON. */
  get json(): unknown {
    if (!this.parsedOnce) {
      this.parsedOnce = true;
      const first = this.text.trimStart()[0];
      // Plain values (`ON`, `21.5`) are far more common than JSON on state topics: only try what may be.
      if (first === '{' || first === '[' || first === '"' || /^[-\d tfn]/.test(first ?? '')) {
        try {
          this.parsed = JSON.parse(this.text);
        } catch {
          this.parsed = undefined;
        }
      }
    }
    return this.parsed;
  }

  /** The variables of a value template for an entity with this `encoding` (not to be changed). */
  variables(encoding: unknown): Record<string, Prepared> {
    if (encoding === '') {
      this.forBytes ??= { value: prepare(this.raw.toString('latin1')) };
      return this.forBytes;
    }
    if (!this.forText) {
      const json = this.json;
      this.forText =
        json === undefined
          ? { value: prepare(this.text) }
          : { value: prepare(this.text), value_json: prepare(json) };
    }
    return this.forText;
  }

  /** The payload as an entity with this `encoding` reads it. */
  value(encoding: unknown): string {
    return encoding === '' ? this.raw.toString('latin1') : this.text;
  }
}
