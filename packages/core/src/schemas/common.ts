import { z } from 'zod/v4';
import type { Closed } from './closed.js';

/**
 * Countries to which commission rates are scoped: ISO 3166-1 alpha-2 codes plus the
 * pan-region `EU`, exactly as the contract lists them.
 */
export const COUNTRY_CODES = [
  'US',
  'GB',
  'EU',
  'AU',
  'CA',
  'IE',
  'DE',
  'AT',
  'FR',
  'BE',
  'IT',
  'ES',
  'NL',
  'SE',
  'FI',
  'PT',
  'CZ',
  'GR',
  'RO',
] as const;

/** The contract's `CountryCode` enumeration. */
export const CountryCodeSchema = z
  .enum(COUNTRY_CODES)
  .describe('Country code (ISO 3166-1 alpha-2, or EU for the pan-region).');
export type CountryCode = z.infer<typeof CountryCodeSchema>;

/** One item of a 422 `detail` array. Extra members are kept. */
export const ValidationIssueSchema = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
});
export type ValidationIssue = Closed<z.infer<typeof ValidationIssueSchema>>;

/**
 * The contract's `ErrorResponse`: `detail` is a string, or (422) an array of objects with
 * free-form members (usually `{ loc, msg, type }`).
 */
export const ErrorResponseSchema = z.looseObject({
  detail: z.union([z.string(), z.array(z.looseObject({}))]),
});
export type ErrorResponse = Closed<z.infer<typeof ErrorResponseSchema>>;
