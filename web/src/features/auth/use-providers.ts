import { useEffect, useState } from 'react';
import { authApi, type OAuthProvider } from './auth.api.js';

let cached: Promise<OAuthProvider[]> | null = null;

/** The identity providers the server has configured (asked once per page load). */
export function useOAuthProviders(enabled: boolean): OAuthProvider[] {
  const [providers, setProviders] = useState<OAuthProvider[]>([]);
  useEffect(() => {
    if (!enabled) return;
    cached ??= authApi.providers().then((result) => {
      if (!result.success) cached = null;
      return result.data?.providers ?? [];
    });
    let live = true;
    cached.then((list) => live && setProviders(list));
    return () => {
      live = false;
    };
  }, [enabled]);
  return providers;
}
