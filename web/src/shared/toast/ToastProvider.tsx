import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { TOAST_DURATION_MS, ToastContext } from './toast-context.js';
import './toast.css';

interface Toast {
  id: number;
  message: string;
}

/** docs/screens.md#layout: one message at a time, shown for 2.5 s; a newer message replaces the older. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toast, setToast] = useState<Toast | null>(null);
  const nextId = useRef(1);

  const showToast = useCallback((message: string) => {
    setToast({ id: nextId.current++, message });
  }, []);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), TOAST_DURATION_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  const value = useMemo(() => ({ showToast }), [showToast]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toast-region" role="status" aria-live="polite">
        {toast && (
          <div key={toast.id} className="toast">
            {toast.message}
          </div>
        )}
      </div>
    </ToastContext.Provider>
  );
}
