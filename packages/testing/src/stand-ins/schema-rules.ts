/**
 * The tool-schema rules of each provider, written from their documentation. `openAiStrictProblems`
 * is also the strict-mode check of every package's tests (imported from this file's source:
 * the adapters cannot depend on this package, which depends on them).
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sub-schemas of a schema, with their paths. */
function subSchemas(schema: Json, path: string): Array<[Json, string]> {
  const found: Array<[Json, string]> = [];
  for (const group of ['properties', '$defs', 'definitions']) {
    const value = schema[group];
    if (!isObject(value)) continue;
    for (const [name, child] of Object.entries(value)) {
      if (isObject(child)) found.push([child, `${path}.${name}`]);
    }
  }
  if (isObject(schema.items)) found.push([schema.items, `${path}[]`]);
  for (const group of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const value = schema[group];
    if (!Array.isArray(value)) continue;
    value.forEach((child, i) => {
      if (isObject(child)) found.push([child, `${path}.${group}[${i}]`]);
    });
  }
  return found;
}

function walk(
  schema: Json,
  path: string,
  depth: number,
  check: (schema: Json, path: string, depth: number) => string[],
): string[] {
  const problems = check(schema, path, depth);
  for (const [child, childPath] of subSchemas(schema, path)) {
    problems.push(...walk(child, childPath, depth + 1, check));
  }
  return problems;
}

/**
 * OpenAI Structured Outputs (function calling with `strict: true`), "Supported schemas":
 * the root is an object (not `anyOf`); every object lists all its properties in `required`
 * and sets `additionalProperties: false`; only the supported keywords (types, `enum`,
 * `const`, `anyOf`, `$ref`/`$defs`, descriptions, string `pattern`/`format`, numeric
 * bounds and `multipleOf`, `minItems`/`maxItems`); at most 10 levels of nesting.
 */
const OPENAI_STRICT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'description',
  'title',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);

export function openAiStrictProblems(schema: unknown): string[] {
  if (!isObject(schema) || schema.type !== 'object') return ['(root): must be an object schema'];
  const { $schema: _ignored, ...root } = schema;
  return walk(root, '(root)', 1, (node, path, depth) => {
    const problems = Object.keys(node)
      .filter((keyword) => !OPENAI_STRICT_KEYWORDS.has(keyword))
      .map((keyword) => `${path}: ${keyword} is not supported in strict mode`);
    if (depth > 10) problems.push(`${path}: nested deeper than 10 levels`);
    if (node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'))) {
      if (node.additionalProperties !== false) {
        problems.push(`${path}: additionalProperties must be false`);
      }
      const required = Array.isArray(node.required) ? node.required : [];
      for (const key of Object.keys(isObject(node.properties) ? node.properties : {})) {
        if (!required.includes(key)) problems.push(`${path}.${key}: must be in required`);
      }
    }
    return problems;
  });
}

/**
 * Gemini `FunctionDeclaration.parameters` (the Schema object, "a select subset of an OpenAPI
 * 3.0 schema object"): `type`, `format`, `title`, `description`, `nullable`, `enum`,
 * `maxItems`/`minItems`, `properties`, `required`, `minProperties`/`maxProperties`,
 * `minLength`/`maxLength`, `pattern`, `example`, `anyOf`, `propertyOrdering`, `default`,
 * `items`, `minimum`/`maximum`; no `additionalProperties`, `$ref`, `$defs`, `oneOf`,
 * `allOf`, `const`, and `type` is a single name, not a list.
 */
const GEMINI_SCHEMA_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

/**
 * Gemini `FunctionDeclaration.parametersJsonSchema` (JSON Schema, "must describe an object
 * where the properties are the parameters"), with the keywords Gemini's JSON Schema
 * support lists; others (e.g. `not`, `if`, `patternProperties`) are refused.
 */
const GEMINI_JSON_SCHEMA_KEYWORDS = new Set([
  '$id',
  '$defs',
  '$ref',
  '$anchor',
  'type',
  'format',
  'title',
  'description',
  'enum',
  'const',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'anyOf',
  'oneOf',
  'properties',
  'additionalProperties',
  'required',
  'propertyOrdering',
  'default',
]);

export function geminiDeclarationProblems(declaration: Json): string[] {
  const name = String(declaration.name);
  // The v1beta docs: a letter or underscore first, then letters, digits, `_ : . -`; 64 at most.
  if (!/^[a-zA-Z_][a-zA-Z0-9_:.-]{0,63}$/.test(name)) return [`${name}: invalid function name`];
  if (declaration.parameters !== undefined && declaration.parametersJsonSchema !== undefined) {
    return [`${name}: parameters and parametersJsonSchema are mutually exclusive`];
  }
  if (isObject(declaration.parametersJsonSchema)) {
    const { $schema: _ignored, ...root } = declaration.parametersJsonSchema;
    if (root.type !== 'object') return [`${name}: parametersJsonSchema must describe an object`];
    return walk(root, name, 1, (node, path) =>
      Object.keys(node)
        .filter((keyword) => !GEMINI_JSON_SCHEMA_KEYWORDS.has(keyword))
        .map((keyword) => `${path}: ${keyword} is not supported`),
    );
  }
  if (!isObject(declaration.parameters)) return [];
  return walk(declaration.parameters, name, 1, (node, path) => [
    ...Object.keys(node)
      .filter((field) => !GEMINI_SCHEMA_FIELDS.has(field))
      .map((field) => `${path}: ${field} is not a Schema field`),
    ...(Array.isArray(node.type) ? [`${path}: type must be one name`] : []),
  ]);
}

/** Tool names given more than once in one request (every provider refuses them). */
export function duplicateNameProblems(names: readonly unknown[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const name of names.map(String)) {
    if (seen.has(name)) repeated.add(name);
    seen.add(name);
  }
  return [...repeated].map((name) => `${name}: tool names must be unique`);
}

/** OpenAI function names (Chat Completions and Responses, strict or not). */
export function openAiNameProblems(name: string): string[] {
  return /^[a-zA-Z0-9_-]{1,64}$/.test(name)
    ? []
    : [`${name}: function name must match ^[a-zA-Z0-9_-]{1,64}$`];
}

/**
 * Anthropic Messages `tools[]`: `name` matches `^[a-zA-Z0-9_-]{1,64}$` and `input_schema` is a
 * JSON Schema of type `object`, with no `oneOf`, `allOf` or `anyOf` at its top level.
 */
export function anthropicToolProblems(tool: Json): string[] {
  const name = String(tool.name);
  const schema = isObject(tool.input_schema) ? tool.input_schema : undefined;
  const combinators = ['oneOf', 'allOf', 'anyOf'].filter((key) => schema?.[key] !== undefined);
  return [
    ...(/^[a-zA-Z0-9_-]{1,64}$/.test(name) ? [] : [`${name}: invalid tool name`]),
    ...(schema?.type === 'object' ? [] : [`${name}: input_schema must be an object schema`]),
    ...combinators.map(
      (key) =>
        `${name}: input_schema does not support oneOf, allOf, or anyOf at the top level (${key})`,
    ),
  ];
}
