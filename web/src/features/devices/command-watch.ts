import { COMMAND_CONFIRM_MS } from '@hearth/contracts';
import type { DeviceCommand } from './model/commands.js';
import { CommandConfirmation, commandChecks } from './model/confirm.js';
import type { DeviceView } from './model/device.types.js';
import type { DeviceStore } from './store/device-store.js';

/**
 * docs/screens.md#device-tile: a command sent from the page counts as done only when the device's
 * state confirms it. Each sent command is followed until a state message says so; after
 * COMMAND_CONFIRM_MS without that, the tile says "Not responding" (Apple Home's "No Response")
 * until the device's next state message. A newer command for the device takes over.
 */
export class CommandWatch {
  private readonly waiting = new Map<
    string,
    { confirmation: CommandConfirmation; timer: ReturnType<typeof setTimeout> }
  >();
  private readonly unlisten: () => void;

  constructor(
    private readonly store: DeviceStore,
    private readonly wait = COMMAND_CONFIRM_MS,
  ) {
    this.unlisten = store.listenState((key, state) => {
      const watched = this.waiting.get(key);
      if (watched?.confirmation.report(state)) {
        clearTimeout(watched.timer);
        this.waiting.delete(key);
      }
    });
  }

  /** Follows a command that went out to `device`. */
  watch(device: DeviceView, command: DeviceCommand) {
    const { key } = device;
    clearTimeout(this.waiting.get(key)?.timer);
    this.store.setNotResponding(key, false);
    const timer = setTimeout(() => {
      this.waiting.delete(key);
      this.store.setNotResponding(key, true);
    }, this.wait);
    this.waiting.set(key, { confirmation: new CommandConfirmation(commandChecks(device, command)), timer });
  }

  /** Stops following the device's command (it failed: nothing will confirm it). */
  forget(key: string) {
    clearTimeout(this.waiting.get(key)?.timer);
    this.waiting.delete(key);
    this.store.setNotResponding(key, false);
  }

  /** Forgets every command followed (the page lost its devices). */
  clear() {
    for (const { timer } of this.waiting.values()) clearTimeout(timer);
    this.waiting.clear();
  }

  stop() {
    this.clear();
    this.unlisten();
  }
}
