import { fileURLToPath } from 'node:url';

/**
 * The API key of these tests. Distinct from every other string the app produces, so
 * finding it anywhere the browser can see is a leak, never a coincidence.
 */
export const SECRET_KEY = 'ck_test_webchat_secret_7q2x9v4m';

/** The built page (`vite build` runs before the tests, see package.json). */
export const PAGE_DIR = fileURLToPath(new URL('../../dist', import.meta.url));
