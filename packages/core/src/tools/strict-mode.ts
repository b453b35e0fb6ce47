import { isRecord } from '../is-record.js';

/**
 * Keywords OpenAI's strict mode (Structured Outputs for function calling) refuses. The
 * supported subset keeps types, enum/const, anyOf, $ref/$defs, descriptions and numeric
 * bounds; string lengths, composition other than anyOf and object-size rules are out.
 */
const UNSUPPORTED_KEYWORDS = [
  'minLength',
  'maxLength',
  'allOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
  'patternProperties',
  'unevaluatedProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  'dependentSchemas',
  'contains',
  'default',
] as const;

type JsonObject = Record<string, unknown>;

const isJsonObject: (value: unknown) => value is JsonObject = isRecord;

function objectViolations(schema: JsonObject, path: string): string[] {
  const problems: string[] = [];
  const properties = isJsonObject(schema.properties) ? Object.keys(schema.properties) : [];
  const required = Array.isArray(schema.required) ? schema.required : [];
  if (schema.additionalProperties !== false)
    problems.push(`${path}: additionalProperties must be false`);
  for (const key of properties) {
    if (!required.includes(key))
      problems.push(`${path}.${key}: must be required (use a nullable type)`);
  }
  return problems;
}

/** Child schemas of a schema, with the path to each. */
function children(schema: JsonObject, path: string): Array<[unknown, string]> {
  const found: Array<[unknown, string]> = [];
  for (const key of ['properties', '$defs', 'definitions'] as const) {
    const group = schema[key];
    if (isJsonObject(group)) {
      for (const [name, child] of Object.entries(group)) found.push([child, `${path}.${name}`]);
    }
  }
  if (schema.items !== undefined) found.push([schema.items, `${path}[]`]);
  if (Array.isArray(schema.anyOf)) {
    for (const [i, child] of schema.anyOf.entries()) found.push([child, `${path}|${i}`]);
  }
  return found;
}

function walk(schema: unknown, path: string): string[] {
  if (!isJsonObject(schema)) return [];
  const problems = UNSUPPORTED_KEYWORDS.filter((keyword) => keyword in schema).map(
    (keyword) => `${path}: keyword ${keyword} is not supported`,
  );
  if (schema.type === 'object') problems.push(...objectViolations(schema, path));
  for (const [child, childPath] of children(schema, path)) problems.push(...walk(child, childPath));
  return problems;
}

/**
 * Lists what keeps a tool's JSON Schema out of OpenAI strict mode: a root that is not an
 * object, properties that are not all required, objects that allow additional properties,
 * unsupported keywords. An empty list means the schema is accepted.
 */
export function findStrictModeViolations(schema: unknown): string[] {
  if (!isJsonObject(schema) || schema.type !== 'object')
    return ['(root): must be an object schema'];
  return walk(schema, '(root)');
}
