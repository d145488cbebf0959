import { MUSIC_PROVIDER } from '../shared/music-provider.js';
import { useSession } from '../shared/session/session-context.js';

function Placeholder({ title, text, children }: { title: string; text: string; children?: React.ReactNode }) {
  return (
    <section className="placeholder">
      <h1>{title}</h1>
      <p>{text}</p>
      {children}
    </section>
  );
}

/** docs/screens.md#routes /profile. */
export function ProfilePage() {
  const { logout } = useSession();
  return (
    <Placeholder title="Profile" text="User profile placeholder">
      <button type="button" className="button button--secondary" onClick={() => void logout()}>
        Logout
      </button>
    </Placeholder>
  );
}

export const MapPage = () => <Placeholder title="Map" text="Apartment map placeholder" />;

export const MusicPage = () => (
  <Placeholder title={MUSIC_PROVIDER.name} text={`${MUSIC_PROVIDER.name} integration placeholder`} />
);
