import { type ComponentType, type ReactNode, useEffect, useState } from 'react';

type Module<P> = { default: ComponentType<P> };

export type Loadable<P> = ComponentType<P> & {
  /** Starts fetching the code now (idempotent), e.g. as soon as it is known to be needed. */
  preload(): Promise<ComponentType<P>>;
};

/**
 * A component whose code is fetched on first use and drawn the moment it arrives. Used instead of
 * React.lazy + Suspense: React 19 holds a suspended boundary's content back until 300 ms after its
 * fallback was shown (FALLBACK_THROTTLE_MS), which on a cold load delayed the Devices page's first
 * tile and home's first live card by up to that much while the code had long arrived.
 * A failed download is thrown from render, as React.lazy does.
 */
export function loadable<P extends object>(
  load: () => Promise<Module<P>>,
  fallback: ReactNode = null,
): Loadable<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const preload = () => {
    pending ??= load().then(
      (module) => {
        loaded = module.default;
        return loaded;
      },
      (error: unknown) => {
        pending = null; // the next use tries again
        throw error;
      },
    );
    return pending;
  };

  function LoadableComponent(props: P) {
    const [state, setState] = useState<{ Component: ComponentType<P> | null; error?: unknown }>(() => ({
      Component: loaded,
    }));
    useEffect(() => {
      if (state.Component) return;
      let active = true;
      preload().then(
        (Component) => active && setState({ Component }),
        (error: unknown) => active && setState({ Component: null, error }),
      );
      return () => {
        active = false;
      };
    }, [state.Component]);
    if (state.error !== undefined) throw state.error;
    const { Component } = state;
    return Component ? <Component {...props} /> : fallback;
  }
  return Object.assign(LoadableComponent, { preload });
}
