export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

let common: Promise<Set<string>> | undefined;

/**
 * Passwords too common to accept: the password list of zxcvbn-ts's common dictionary
 * (@zxcvbn-ts/language-common, MIT, pinned in server/package.json; about 49,000 passwords,
 * most frequent first, gathered by zxcvbn-ts from public breach corpora). Those shorter than the
 * minimum are refused by length anyway, so about 18,000 remain. Loaded once, on first use, so an
 * idle server never holds it. To refresh it, pin a newer version of the package and run
 * password-rules.test.ts.
 */
function commonPasswords(): Promise<Set<string>> {
  common ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) =>
      new Set(
        dictionary['passwords-common']
          .filter((password) => [...password].length >= PASSWORD_MIN_LENGTH)
          .map((password) => password.toLowerCase()),
      ),
  );
  return common;
}

/** The reason a new password is refused (each mentions "password", docs/strings.md#validation-rules), or undefined. */
export async function passwordProblem(password: string): Promise<string | undefined> {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if ((await commonPasswords()).has(password.toLowerCase())) {
    return 'This password is too common: choose a less guessable password';
  }
  return undefined;
}
