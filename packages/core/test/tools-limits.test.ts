import { describe, expect, it } from 'vitest';
import { WEBSITE_SEARCH_LIMITS } from '../src/schemas/index.js';
import { TOOL_RESULT_LIMIT_MAX } from '../src/tools/limits.js';

describe('tool limits', () => {
  it('asks for no larger page than the website search allows', () => {
    expect(TOOL_RESULT_LIMIT_MAX).toBe(WEBSITE_SEARCH_LIMITS.limitMax);
  });
});
