import { act, render, screen } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { loadable } from './loadable.js';

const Hello = ({ name }: { name: string }) => <p>Hello {name}</p>;

class Catch extends Component<{ children: ReactNode }, { error: string | null }> {
  override state = { error: null as string | null };
  static getDerivedStateFromError(error: Error) {
    return { error: error.message };
  }
  override render() {
    return this.state.error ? <p>failed: {this.state.error}</p> : this.props.children;
  }
}

describe('loadable', () => {
  it('shows the fallback, then the component as soon as its code arrives, fetching it once', async () => {
    let arrive!: (module: { default: typeof Hello }) => void;
    const load = vi.fn(() => new Promise<{ default: typeof Hello }>((resolve) => (arrive = resolve)));
    const Lazy = loadable(load, <p>loading</p>);
    const view = render(<Lazy name="Ada" />);
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => arrive({ default: Hello }));
    expect(screen.getByText('Hello Ada')).toBeTruthy();
    view.unmount();
    // Once loaded, a new use draws it at once, without asking again.
    render(<Lazy name="Grace" />);
    expect(screen.getByText('Hello Grace')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('starts fetching on preload, before the first render', async () => {
    const load = vi.fn(async () => ({ default: Hello }));
    const Lazy = loadable(load);
    await Lazy.preload();
    render(<Lazy name="Linus" />);
    expect(screen.getByText('Hello Linus')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('throws a failed download to the error boundary and tries again on the next use', async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Hello }>>()
      .mockRejectedValueOnce(new Error('chunk gone'))
      .mockResolvedValueOnce({ default: Hello });
    const Lazy = loadable(load);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const view = render(
      <Catch>
        <Lazy name="Ada" />
      </Catch>,
    );
    expect(await screen.findByText('failed: chunk gone')).toBeTruthy();
    view.unmount();
    render(<Lazy name="Ada" />);
    expect(await screen.findByText('Hello Ada')).toBeTruthy();
    expect(load).toHaveBeenCalledTimes(2);
  });
});
