import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RequestValidationError } from '../src/errors/catalog-error.js';
import { ConversationIdSchema, TurnRequestSchema } from '../src/schemas/conversations.js';
import { validateRequest } from '../src/validation/request.js';
import { requireId, requireMessage } from '../src/validation/text.js';

const RUNS = Number(process.env.CATALOGKIT_FUZZ_RUNS) || 500;

/** What a check gave: its value, or the issues of the RequestValidationError it threw. */
function outcome(check: () => unknown): unknown {
  try {
    return { value: check() };
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    return { issues: error.issues, message: error.message };
  }
}

/** Text near the rules' edges: blanks, lone surrogates, pairs, and anything else. */
const texts = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '',
    ' ',
    '\t\n',
    '\u00a0',
    '\ufeff',
    ' x ',
    '\uD800',
    'a\uDC00',
    '👟',
    ' \uD83D ',
  ),
  fc.string({ unit: 'binary' }),
);
const values = fc.oneof(texts, fc.constantFrom(undefined, null, 0, 5, true, [], {}, ['x']));

// The chat page checks ids and messages without zod (a page with only the token helpers
// bundles none); the schemas the client and the emulator use must say exactly the same.
describe('the zod-free text checks match the wire schemas', () => {
  it('requireId gives what validateRequest(ConversationIdSchema) gives for text, value or issues', () => {
    fc.assert(
      fc.property(texts, (value) => {
        expect(outcome(() => requireId(value, 'ChatSession', 'sessionId'))).toEqual(
          outcome(() => validateRequest(ConversationIdSchema, value, 'ChatSession', 'sessionId')),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it('requireId refuses what is not text as the schema does, first issue "expected string"', () => {
    // zod also runs the length rule on a value with a length (`[]`): one issue more, same verdict.
    fc.assert(
      fc.property(values, (value) => {
        fc.pre(typeof value !== 'string');
        const issue = { path: 'sessionId', message: 'expected string' };
        expect(outcome(() => requireId(value, 'ChatSession', 'sessionId'))).toMatchObject({
          issues: [issue],
        });
        const viaSchema = outcome(() =>
          validateRequest(ConversationIdSchema, value, 'ChatSession', 'sessionId'),
        ) as { issues: unknown[] };
        expect(viaSchema.issues[0]).toEqual(issue);
      }),
      { numRuns: RUNS },
    );
  });

  it('requireMessage gives what validateRequest(TurnRequestSchema) gives for { message }', () => {
    fc.assert(
      fc.property(values, (message) => {
        const viaSchema = outcome(() => validateRequest(TurnRequestSchema, { message }, 'send'));
        const expected =
          'value' in (viaSchema as object)
            ? { value: (viaSchema as { value: { message: unknown } }).value.message }
            : viaSchema;
        expect(outcome(() => requireMessage(message, 'send'))).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it('names the field and says why, for a blank id and a message with a lone surrogate', () => {
    expect(() => requireId('  ', 'ChatSession', 'sessionId')).toThrow(
      'Invalid ChatSession request: sessionId: must not be empty',
    );
    expect(() => requireMessage('hi \uD800', 'ChatSession.send')).toThrow(
      'message: must be well-formed Unicode (lone surrogate)',
    );
    expect(requireId(' s1 ', 'x', 'id')).toBe('s1');
    expect(requireMessage(' keep my spaces ', 'x')).toBe(' keep my spaces ');
  });
});
