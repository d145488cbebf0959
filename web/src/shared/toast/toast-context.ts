import { createContext, useContext } from 'react';

/** docs/screens.md#layout: messages appear in a toast for 2.5 seconds. The app shell provides it. */
export const TOAST_DURATION_MS = 2500;

export interface ToastValue {
  showToast(message: string): void;
}

export const ToastContext = createContext<ToastValue>({ showToast: () => {} });

export const useToast = (): ToastValue => useContext(ToastContext);
