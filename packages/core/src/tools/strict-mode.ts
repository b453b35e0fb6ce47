import { isRecord } from '../is-record.js';

/**
 * Keywords OpenAI's strict mode (Structured Outputs for function calling) refuses: it keeps
 * types, enum/const, anyOf, $ref/$defs, descriptions and numeric bounds only.
 */
const UNSUPPORTED_KEYWORDS = [
  ...['minLength', 'maxLength', 'allOf', 'oneOf', 'not', 'if', 'then', 'else', 'contains'],
  ...['patternProperties', 'unevaluatedProperties', 'propertyNames', 'minProperties'],
  ...['maxProperties', 'dependentRequired', 'dependentSchemas', 'default'],
];

function walk(schema: unknown, path: string): string[] {
  if (!isRecord(schema)) return [];
  const problems = UNSUPPORTED_KEYWORDS.filter((keyword) => keyword in schema).map(
    (keyword) => `${path}: keyword ${keyword} is not supported`,
  );
  const children: Array<[unknown, string]> = [];
  for (const key of ['properties', '$defs', 'definitions']) {
    const group = schema[key];
    if (isRecord(group))
      for (const [name, child] of Object.entries(group)) children.push([child, `${path}.${name}`]);
  }
  if (schema.items !== undefined) children.push([schema.items, `${path}[]`]);
  const anyOf: unknown[] = Array.isArray(schema.anyOf) ? schema.anyOf : [];
  for (const [i, child] of anyOf.entries()) children.push([child, `${path}|${i}`]);
  if (schema.type === 'object') {
    if (schema.additionalProperties !== false)
      problems.push(`${path}: additionalProperties must be false`);
    const required = Array.isArray(schema.required) ? schema.required : [];
    for (const key of Object.keys(isRecord(schema.properties) ? schema.properties : {})) {
      if (!required.includes(key))
        problems.push(`${path}.${key}: must be required (use a nullable type)`);
    }
  }
  return [...problems, ...children.flatMap(([child, childPath]) => walk(child, childPath))];
}

/** What keeps a tool's JSON Schema out of OpenAI strict mode; empty when it is accepted. */
export function findStrictModeViolations(schema: unknown): string[] {
  if (!isRecord(schema) || schema.type !== 'object') return ['(root): must be an object schema'];
  return walk(schema, '(root)');
}
