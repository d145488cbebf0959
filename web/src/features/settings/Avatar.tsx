import type { User } from '@hearth/contracts';
import { useState } from 'react';
import { initials } from './initials.js';
import './avatar.css';

type AvatarUser = Partial<
  Pick<User, 'first_name' | 'last_name' | 'user_name' | 'name' | 'profile_picture_url'>
>;

interface AvatarProps {
  user: AvatarUser | null | undefined;
  /** Diameter in px (multiples of 8 keep the grid). */
  size?: number;
}

/** The profile picture, or the initials when there is none (or it fails to load). */
export function Avatar({ user, size = 40 }: AvatarProps) {
  const url = user?.profile_picture_url ?? null;
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const style = { width: size, height: size, fontSize: Math.round(size * 0.4) };
  if (url && failedUrl !== url) {
    return (
      <img
        className="hearth-avatar"
        src={url}
        alt=""
        width={size}
        height={size}
        style={style}
        onError={() => setFailedUrl(url)}
      />
    );
  }
  return (
    <span className="hearth-avatar hearth-avatar--initials" style={style} aria-hidden="true">
      {initials(user)}
    </span>
  );
}
