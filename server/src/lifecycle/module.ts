import type { Logger } from 'pino';
import type { HttpApp } from '../http/http-app.js';

/**
 * One feature of Hearth (accounts, users, the device hub, …), all with the same shape. The
 * composition root (`app.ts`) builds each with the narrow dependencies it declares, registers
 * them in order, starts them in that order and closes them in the reverse one, the way
 * Zigbee2MQTT's controller runs its extensions.
 */
export interface Module {
  /** Names the module in logs, and in /healthz's `failing` list when it has `ready`. */
  readonly name: string;
  /** Adds the module's routes and hooks; nothing runs yet. */
  register?(app: HttpApp): void | Promise<void>;
  /** Starts the module's work (seeding, timers, subscriptions) once every module is registered. */
  start?(): void | Promise<void>;
  /** Stops that work and frees what the module holds. */
  close?(): void | Promise<void>;
  /** Whether the module is ready to serve (checked by /healthz). */
  ready?(): boolean | Promise<boolean>;
}

/** Runs modules in order: register all, then start all; closes the started ones in reverse. */
export class Lifecycle {
  private readonly started: Module[] = [];

  constructor(
    readonly modules: readonly Module[],
    private readonly log: Logger,
  ) {}

  async register(app: HttpApp): Promise<void> {
    for (const module of this.modules) await module.register?.(app);
  }

  /** Starts each module; if one fails, it and the ones before it are closed and the error is thrown. */
  async start(): Promise<void> {
    for (const module of this.modules) {
      this.started.push(module);
      try {
        await module.start?.();
      } catch (error) {
        await this.close();
        throw error;
      }
    }
  }

  async close(): Promise<void> {
    for (const module of this.started.splice(0).reverse()) {
      try {
        await module.close?.();
      } catch (error) {
        this.log.warn({ err: error, module: module.name }, 'module close failed');
      }
    }
  }
}
