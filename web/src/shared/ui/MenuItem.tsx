import type { ButtonHTMLAttributes } from 'react';

/**
 * An item of a popover menu (`role="menu"`): a button with the popover's look. Given `checked`,
 * it is one of a set to pick from (`menuitemradio`), e.g. the room a device is in.
 */
export function MenuItem({
  checked,
  className,
  ...button
}: { checked?: boolean } & ButtonHTMLAttributes<HTMLButtonElement>) {
  const look = `popover-item${className ? ` ${className}` : ''}`;
  if (checked === undefined) return <button type="button" role="menuitem" className={look} {...button} />;
  return <button type="button" role="menuitemradio" aria-checked={checked} className={look} {...button} />;
}
