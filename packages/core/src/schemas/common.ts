import * as z from 'zod/v4/mini';
import { type Closed, schema } from './define.js';

// biome-ignore format: one line per code would be 19 lines of noise
/** Countries commission rates are scoped to: ISO 3166-1 alpha-2 plus the pan-region `EU`, as the contract lists them. */
export const COUNTRY_CODES = ['US', 'GB', 'EU', 'AU', 'CA', 'IE', 'DE', 'AT', 'FR', 'BE', 'IT', 'ES', 'NL', 'SE', 'FI', 'PT', 'CZ', 'GR', 'RO'] as const;

/** A country of the contract (ISO 3166-1 alpha-2, or `EU`). */
export type CountryCode = (typeof COUNTRY_CODES)[number];

/** One item of a 422 `detail` array. Extra members are kept. */
export const ValidationIssueSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    loc: z.array(z.union([z.string(), z.number()])),
    msg: z.string(),
    type: z.string(),
  }),
);
/** One issue of a 422 answer: where (`loc`), what (`msg`) and its kind (`type`). */
export type ValidationIssue = Closed<z.infer<typeof ValidationIssueSchema>>;

/** The contract's `ErrorResponse`: `detail` is a string, or (422) an array of objects. */
export const ErrorResponseSchema = /* @__PURE__ */ schema(() =>
  z.looseObject({
    detail: z.union([z.string(), z.array(z.looseObject({}))]),
  }),
);
/** An error body of the service: `detail` as text, or (422) a list of issues. */
export type ErrorResponse = Closed<z.infer<typeof ErrorResponseSchema>>;
