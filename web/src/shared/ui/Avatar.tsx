import { UserRound } from 'lucide-react';
import { useState } from 'react';
import { type InitialsUser, initials } from './initials.js';

export interface AvatarUser extends InitialsUser {
  profile_picture_url?: string | null;
  avatar?: string | null;
}

/**
 * The user's picture, or their initials (docs/strings.md#constants-and-limits) when there is none or it fails to load, or a
 * person icon for nobody. Decorative: the button around it carries the label.
 */
export function Avatar({ user, size = 40 }: { user: AvatarUser | null; size?: number }) {
  const src = user?.avatar ?? user?.profile_picture_url ?? null;
  const [failed, setFailed] = useState<string | null>(null);
  const text = initials(user);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  if (src && failed !== src) {
    return (
      <img
        className="avatar"
        src={src}
        alt=""
        width={size}
        height={size}
        style={style}
        onError={() => setFailed(src)}
      />
    );
  }
  return (
    <span className="avatar avatar--initials" style={style} aria-hidden="true">
      {text || <UserRound size={Math.round(size * 0.55)} />}
    </span>
  );
}
