export interface GreetingUser {
  first_name?: string | null;
  user_name?: string | null;
  name?: string | null;
}

/** docs/screens.md#home: the first present of first_name, user_name, name; "Welcome back!" without a user. */
export function greetingText(user: GreetingUser | null): string {
  const name = user?.first_name || user?.user_name || user?.name;
  return name ? `Welcome back, ${name}!👋` : 'Welcome back!';
}

export function Greeting({ user }: { user: GreetingUser | null }) {
  return <h1 className="greeting">{greetingText(user)}</h1>;
}
