import type { User } from '@hearth/contracts';
import { act, cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FetchCall, stubFetch } from '../../shared/api/test-fetch.js';
import { ToastProvider } from '../../shared/toast/ToastProvider.js';
import { useExamples } from './use-examples.js';

const ada = { id: 'u-ada', role: 'admin' } as User;
const wrapper = ({ children }: { children: ReactNode }) => <ToastProvider>{children}</ToastProvider>;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the examples on home, remembered on the server (docs/screens.md#examples)', () => {
  it('sends quick changes one after another, the newest last, so the server keeps the newest', async () => {
    const answers: (() => void)[] = [];
    const calls = stubFetch((call: FetchCall) =>
      call.method === 'GET'
        ? { body: { hide_examples: false } }
        : new Promise((resolve) => answers.push(() => resolve({ body: call.body }))),
    );
    const { result } = renderHook(() => useExamples(ada), { wrapper });
    await vi.waitFor(() => expect(result.current.known).toBe(true));
    act(() => result.current.setHidden(true));
    act(() => result.current.setHidden(false));
    act(() => result.current.setHidden(true));
    act(() => result.current.setHidden(false));
    expect(result.current.hidden).toBe(false);
    const patches = () => calls.filter((call) => call.method === 'PATCH').map((call) => call.body);
    // One on its way; the others wait for its answer, and only the newest of them goes next.
    await vi.waitFor(() => expect(patches()).toEqual([{ hide_examples: true }]));
    await act(async () => answers.shift()?.());
    await vi.waitFor(() => expect(patches()).toEqual([{ hide_examples: true }, { hide_examples: false }]));
    await act(async () => answers.shift()?.());
    expect(patches()).toHaveLength(2);
    expect(result.current.hidden).toBe(false);
  });

  it('puts a refused change back and says why', async () => {
    stubFetch((call: FetchCall) =>
      call.method === 'GET' ? { body: { hide_examples: false } } : { status: 500, body: { error: 'Nope' } },
    );
    const { result } = renderHook(() => useExamples(ada), { wrapper });
    await vi.waitFor(() => expect(result.current.known).toBe(true));
    act(() => result.current.setHidden(true));
    expect(result.current.hidden).toBe(true);
    await vi.waitFor(() => expect(result.current.hidden).toBe(false));
  });
});
