import { describe } from 'vitest';

/**
 * Service-backed suites run when their URL is set (TEST_DATABASE_URL, TEST_MQTT_URL). Unset,
 * they are skipped with a printed reason; with REQUIRE_SERVICES=1 a skip is a failure.
 */
export function serviceUrl(variable: 'TEST_DATABASE_URL' | 'TEST_MQTT_URL'): string | undefined {
  const url = process.env[variable];
  if (url) return url;
  if (process.env.REQUIRE_SERVICES === '1') {
    throw new Error(`${variable} is not set but REQUIRE_SERVICES=1: the service-backed tests must run`);
  }
  return undefined;
}

/** describe() that runs with the service URL, or is skipped with a printed reason. */
export function describeWithService(
  variable: 'TEST_DATABASE_URL' | 'TEST_MQTT_URL',
  name: string,
  body: (url: string) => void,
) {
  const url = serviceUrl(variable);
  if (url) {
    describe(name, () => body(url));
  } else {
    console.warn(`[skipped] ${name}: ${variable} is not set`);
    describe.skip(`${name} (skipped: ${variable} is not set)`, () => body(''));
  }
}
